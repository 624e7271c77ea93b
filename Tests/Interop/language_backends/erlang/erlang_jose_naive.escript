#!/usr/bin/env escript
%% erlang-jose-naive: an audit backend verifying Limited Login ID tokens with erlang-jose (Debian's erlang-jose,
%% jose 1.11.5), written as its docs show (README, "Unsecured Signing Vulnerability" and "Usage";
%% https://hexdocs.pm/jose/jose_jwt.html#verify_strict/3): the provider's key set fetched with httpc, each key read
%% with jose_jwk:from_map/1, and the token accepted when `jose_jwt:verify_strict(JWK, [<<"RS256">>], Token)`
%% answers `{true, #jose_jwt{fields = Claims}, _}` for one of them. jose fetches no key set and checks no claim,
%% and its docs show no kid handling: a developer tries each key of the set, fetched for every token, then checks
%% by hand what the docs leave to them: aud and iss equal to the app ID and the issuer, exp in the future; then
%% the nonce compared with X-Nonce (Limited Login's docs require it). Nothing more.
-mode(compile).
-include("serve.hrl").

main(Args) ->
    #{port := Port, provider := Issuer, app_id := AppId} = arguments(Args),
    JwksURL = <<Issuer/binary, "/.well-known/oauth/openid/jwks/">>,
    serve(Port, fun(Token, Nonce) -> verify(Token, Nonce, Issuer, AppId, JwksURL) end).

verify(Token, Nonce, Issuer, AppId, JwksURL) ->
    #{<<"keys">> := KeyMaps} = fetch_json(JwksURL),
    Verified = [Claims || KeyMap <- KeyMaps,
                          {true, #jose_jwt{fields = Claims}, _JWS} <-
                              [jose_jwt:verify_strict(jose_jwk:from_map(KeyMap), [<<"RS256">>], Token)]],
    [#{<<"aud">> := AppId, <<"iss">> := Issuer, <<"exp">> := Exp, <<"sub">> := Subject} = Claims | _] = Verified,
    true = Exp > erlang:system_time(second),
    check_nonce(Claims, Nonce),
    Subject.
