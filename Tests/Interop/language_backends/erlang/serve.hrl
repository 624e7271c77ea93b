%% The HTTP side the Erlang audit backends share, included as source by each escript (an escript is one file, so
%% the shared functions come in through -include; nothing to compile).
%%
%% `GET /me` with `Authorization: Bearer <token>` (and optionally `X-Nonce: <expected nonce>`) answers 200
%% {"sub": ...} when the backend's Verify(Token, Nonce) returns a subject and 401 {"error": ...} when it raises
%% anything at all; other paths answer 404. Started as `FILE --port P --provider BASE_URL --app-id APP_ID`, it
%% serves on 127.0.0.1 only (gen_tcp, OTP's HTTP packet parser, a process per connection, `Connection: close`),
%% prints `listening on http://127.0.0.1:P` once it accepts connections, and stops on SIGTERM (the VM's default
%% SIGTERM handling, init:stop/0). JSON through jose:encode/1 and jose:decode/1 (jose picks the JSON library
%% installed: Debian's erlang-jiffy here).

-include_lib("jose/include/jose_jwt.hrl").
-include_lib("jose/include/jose_jws.hrl").

-define(USAGE, "usage: ~s --port P --provider BASE_URL --app-id APP_ID~n").

%% #{port, provider, app_id} from `--port P --provider URL --app-id ID` in any order (all three required), with
%% inets (httpc) and jose started.
arguments(Args) ->
    Options = parse_arguments(Args, #{}),
    case maps:size(Options) of
        3 -> ok;
        _ -> usage()
    end,
    {ok, _} = application:ensure_all_started(inets),
    {ok, _} = application:ensure_all_started(jose),
    Options.

parse_arguments([], Options) -> Options;
parse_arguments(["--port", Port | Rest], Options) -> parse_arguments(Rest, Options#{port => list_to_integer(Port)});
parse_arguments(["--provider", URL | Rest], Options) -> parse_arguments(Rest, Options#{provider => list_to_binary(URL)});
parse_arguments(["--app-id", AppId | Rest], Options) -> parse_arguments(Rest, Options#{app_id => list_to_binary(AppId)});
parse_arguments(_, _) -> usage().

usage() ->
    io:format(standard_error, ?USAGE, [escript:script_name()]),
    halt(64).

%% The JSON document at URL (httpc), or an error for a non-200 answer or a body that is not JSON.
fetch_json(URL) ->
    {ok, {{_, 200, _}, _Headers, Body}} =
        httpc:request(get, {binary_to_list(URL), []}, [{timeout, 5000}, {connect_timeout, 5000}],
                      [{body_format, binary}]),
    jose:decode(Body).

%% The nonce the request carried (X-Nonce), compared in constant time with the token's; none given: not checked.
check_nonce(_Claims, undefined) -> ok;
check_nonce(Claims, Expected) ->
    Got = maps:get(<<"nonce">>, Claims, <<>>),
    case is_binary(Got) andalso byte_size(Got) =:= byte_size(Expected) andalso crypto:hash_equals(Got, Expected) of
        true -> ok;
        false -> error(nonce_mismatch)
    end.

%% Serves `GET /me` on 127.0.0.1:Port, calling Verify(Token, Nonce) -> Subject for each request; never returns.
serve(Port, Verify) ->
    {ok, Listen} = gen_tcp:listen(Port, [binary, {ip, {127, 0, 0, 1}}, {packet, http_bin}, {active, false},
                                         {reuseaddr, true}, {backlog, 128}, {buffer, 256 * 1024}]),
    io:format("listening on http://127.0.0.1:~b~n", [Port]),
    accept(Listen, Verify).

accept(Listen, Verify) ->
    {ok, Socket} = gen_tcp:accept(Listen),
    Pid = spawn(fun() -> receive go -> handle(Socket, Verify) end end),
    ok = gen_tcp:controlling_process(Socket, Pid),
    Pid ! go,
    accept(Listen, Verify).

%% One request: its line and headers (lower-cased names), one answer, then the connection closes.
handle(Socket, Verify) ->
    {Status, Document} =
        case read_request(Socket) of
            {ok, Path, Headers} -> route(Path, Headers, Verify);
            {error, Reason} -> {400, #{<<"error">> => describe(Reason)}}
        end,
    Body = jose:encode(Document),
    gen_tcp:send(Socket, [<<"HTTP/1.1 ">>, integer_to_binary(Status), <<" ">>, reason(Status),
                          <<"\r\nContent-Type: application/json\r\nContent-Length: ">>,
                          integer_to_binary(byte_size(Body)), <<"\r\nConnection: close\r\n\r\n">>, Body]),
    gen_tcp:close(Socket).

read_request(Socket) ->
    case gen_tcp:recv(Socket, 0, 30000) of
        {ok, {http_request, _Method, {abs_path, Path}, _Version}} -> read_headers(Socket, Path, #{});
        {ok, Other} -> {error, Other};
        {error, _} = Error -> Error
    end.

read_headers(Socket, Path, Headers) ->
    case gen_tcp:recv(Socket, 0, 30000) of
        {ok, {http_header, _, Name, _, Value}} -> read_headers(Socket, Path, Headers#{lower(Name) => Value});
        {ok, http_eoh} -> {ok, Path, Headers};
        {ok, Other} -> {error, Other};
        {error, _} = Error -> Error
    end.

route(Path, Headers, Verify) ->
    case hd(binary:split(Path, <<"?">>)) of
        <<"/me">> ->
            try
                Token = bearer_token(maps:get(<<"authorization">>, Headers, <<>>)),
                {200, #{<<"sub">> => Verify(Token, maps:get(<<"x-nonce">>, Headers, undefined))}}
            catch
                Class:Reason -> {401, #{<<"error">> => describe({Class, Reason})}} % a bad token is never a 500
            end;
        _ -> {404, #{<<"error">> => <<"not found">>}}
    end.

%% The token of an `Authorization: Bearer <token>` header, or an error.
bearer_token(Authorization) ->
    case binary:split(Authorization, <<" ">>) of
        [Scheme, Token] when Token =/= <<>> ->
            <<"bearer">> = lower(Scheme),
            string:trim(Token);
        _ -> error(no_bearer_token)
    end.

lower(Name) when is_atom(Name) -> lower(atom_to_binary(Name));
lower(Name) -> string:lowercase(Name).

%% A short, printable-ASCII account of an error for the answer's "error".
describe(Term) ->
    Text = [C || C <- lists:flatten(io_lib:format("~0P", [Term, 6])), C >= 32, C < 127],
    list_to_binary(lists:sublist(Text, 300)).

reason(200) -> <<"OK">>;
reason(400) -> <<"Bad Request">>;
reason(401) -> <<"Unauthorized">>;
reason(404) -> <<"Not Found">>.
