#!/usr/bin/env escript
%% erlang-jose-corrected: erlang-jose-naive (jose_jwt:verify_strict/3 as jose's docs show, then aud, iss, exp and
%% the nonce by hand) plus what it takes to refuse every bad token the audit sends (`limited-login audit --library
%% erlang-jose`). jose verifies the signature only, so every addition is a hand check around verify_strict:
%% - the key the header's kid names, read with jose_jwt:peek_protected/1, and a token without kid refused
%%   (missing-kid: the naive backend tries every key);
%% - iat required, at most an hour old and at most a minute ahead (no-iat, too-old, issued-in-future); exp an
%%   integer; sub and jti non-empty strings (empty-sub, empty-jti);
%% - no `crit` (crit-header: jose ignores it) and typ absent or JWT (typ-not-jwt);
%% - at most 8 KiB (huge-token), each segment strict, canonical base64url (signature-base64-padding: jose's
%%   decoder takes padding), and no claim named twice (duplicate-claim: the payload read again with jiffy, the
%%   JSON library behind jose here, as a list of pairs, which keeps both);
%% - a key cache (jose fetches no key set; the naive backend fetches it for every token): refetched for an
%%   unknown kid at most every 30 s (key-rotation), keeping the last good set when a fetch fails or holds no key
%%   (FAULT:*), and refreshed when older than an hour (retired-key).
-mode(compile).
-include("serve.hrl").

-define(MAX_TOKEN_BYTES, 8192). % a Limited Login ID token is about 1 KB
-define(MAX_AGE, 3600).         % seconds since iat, as Facebook's SDK allows
-define(LEEWAY, 60).            % seconds of clock skew allowed for an iat ahead
-define(COOLDOWN, 30).          % seconds between refetches for an unknown kid
-define(MAX_SET_AGE, 3600).     % seconds a fetched key set is trusted

main(Args) ->
    #{port := Port, provider := Issuer, app_id := AppId} = arguments(Args),
    start_key_cache(<<Issuer/binary, "/.well-known/oauth/openid/jwks/">>),
    serve(Port, fun(Token, Nonce) -> verify(Token, Nonce, Issuer, AppId) end).

%% recipe:begin (docs/AUDIT.md shows this part, word for word)
verify(Token, Nonce, Issuer, AppId) ->
    true = byte_size(Token) =< ?MAX_TOKEN_BYTES,
    [_, Payload, _] = Segments = binary:split(Token, <<".">>, [global]),
    lists:foreach(fun strict_base64url/1, Segments),
    #jose_jws{fields = Header = #{<<"kid">> := Kid}} = jose_jwt:peek_protected(Token),
    false = maps:is_key(<<"crit">>, Header),
    <<"JWT">> = maps:get(<<"typ">>, Header, <<"JWT">>),
    {ok, JWK} = key(Kid),
    {true, #jose_jwt{fields = Claims}, _JWS} = jose_jwt:verify_strict(JWK, [<<"RS256">>], Token),
    #{<<"aud">> := AppId, <<"iss">> := Issuer, <<"exp">> := Exp, <<"iat">> := Iat,
      <<"sub">> := Subject, <<"jti">> := Jti} = Claims,
    Now = erlang:system_time(second),
    true = is_integer(Exp) andalso Exp > Now,
    true = is_integer(Iat) andalso Iat =< Now + ?LEEWAY andalso Now - Iat =< ?MAX_AGE,
    true = is_binary(Subject) andalso Subject =/= <<>> andalso is_binary(Jti) andalso Jti =/= <<>>,
    {Pairs} = jiffy:decode(jose_base64url:'decode!'(Payload)),
    true = length(Pairs) =:= maps:size(Claims), % a name given twice counts once in Claims
    check_nonce(Claims, Nonce),
    Subject.
%% recipe:end

%% A segment that is strict, canonical base64url: what it decodes to encodes back to the same text.
strict_base64url(Segment) ->
    Segment = jose_base64url:encode(jose_base64url:'decode!'(Segment), #{padding => false}).

%% The key the provider's set holds under Kid, as {ok, JWK}, or error; asked of the key_cache process.
key(Kid) ->
    Ref = make_ref(),
    key_cache ! {key, Kid, self(), Ref},
    receive {Ref, Answer} -> Answer after 15000 -> error(key_cache_timeout) end.

start_key_cache(URL) ->
    register(key_cache, spawn_link(fun() -> key_cache(URL, #{}, undefined, undefined) end)).

%% Holds the set as #{Kid => JWK}, when it was fetched and when a fetch was last tried (failed or not): one
%% request at a time, and a fetch at most every ?COOLDOWN seconds, also while the provider is down.
key_cache(URL, Keys, FetchedAt, TriedAt) ->
    receive
        {key, Kid, From, Ref} ->
            Now = erlang:monotonic_time(second),
            Since = fun(undefined) -> infinity; (Time) -> Now - Time end,
            Wanted = Since(FetchedAt) > ?MAX_SET_AGE orelse not maps:is_key(Kid, Keys),
            {Keys1, FetchedAt1, TriedAt1} =
                case Wanted andalso Since(TriedAt) > ?COOLDOWN of
                    true -> try {fetch_keys(URL), Now, Now} catch _:_ -> {Keys, FetchedAt, Now} end; % keep the last good set
                    false -> {Keys, FetchedAt, TriedAt}
                end,
            From ! {Ref, maps:find(Kid, Keys1)},
            key_cache(URL, Keys1, FetchedAt1, TriedAt1)
    end.

%% The provider's set as #{Kid => JWK}; an error when it cannot be had or holds no key.
fetch_keys(URL) ->
    #{<<"keys">> := KeyMaps} = fetch_json(URL),
    Keys = maps:from_list([{Kid, jose_jwk:from_map(KeyMap)} || KeyMap = #{<<"kid">> := Kid} <- KeyMaps]),
    true = maps:size(Keys) > 0,
    Keys.
