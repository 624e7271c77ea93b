# The HTTP side the Ruby audit backends share (Ruby stdlib only: WEBrick, a thread per connection).
#
# `GET /me` with `Authorization: Bearer <token>` (and optionally `X-Nonce: <expected nonce>`) answers
# 200 {"sub": ...} when the backend's verify block returns a subject, and 401 {"error": ...} when it raises
# anything at all; other paths answer 404. Started as `ruby FILE --port P --provider BASE_URL --app-id APP_ID`,
# it serves on 127.0.0.1 only, prints `listening on http://127.0.0.1:P` once it accepts connections, and stops
# on SIGTERM.

require 'json'
require 'net/http'
require 'openssl'
require 'webrick'

module Serve
  module_function

  # --port P --provider URL --app-id ID, in any order; all three are required.
  def arguments
    options = {}
    ARGV.each_slice(2) do |name, value|
      key = { '--port' => :port, '--provider' => :provider, '--app-id' => :app_id }[name]
      abort("usage: #{$PROGRAM_NAME} --port P --provider BASE_URL --app-id APP_ID") unless key && value
      options[key] = value
    end
    abort("usage: #{$PROGRAM_NAME} --port P --provider BASE_URL --app-id APP_ID") unless options.size == 3
    options[:port] = Integer(options[:port])
    options
  end

  # The JSON document at url (Net::HTTP), or an error for a non-2xx answer or a body that is not JSON.
  def fetch_json(url, timeout: 10)
    uri = URI(url)
    response = Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == 'https',
                                                   open_timeout: timeout, read_timeout: timeout) do |http|
      http.get(uri.request_uri)
    end
    response.value # raises unless 2xx
    JSON.parse(response.body)
  end

  # The token of an `Authorization: Bearer <token>` header, or an error.
  def bearer_token(authorization)
    scheme, token = authorization.to_s.split(' ', 2)
    raise ArgumentError, 'no bearer token' unless scheme.to_s.casecmp?('bearer') && !token.to_s.strip.empty?

    token.strip
  end

  # The nonce the request carried (X-Nonce), compared in constant time with the token's; none given: not checked.
  def check_nonce(payload, nonce)
    return if nonce.nil?
    raise ArgumentError, 'nonce mismatch' unless OpenSSL.secure_compare(payload['nonce'].to_s, nonce)
  end

  # Serves `GET /me` on 127.0.0.1:port, calling verify(token, nonce) -> subject for each request.
  def serve(port, &verify)
    server = WEBrick::HTTPServer.new(
      BindAddress: '127.0.0.1', Port: port,
      Logger: WEBrick::Log.new(File::NULL), AccessLog: [],
      StartCallback: -> { puts "listening on http://127.0.0.1:#{port}"; $stdout.flush }
    )
    server.mount_proc('/') do |request, response|
      status, document =
        if request.path != '/me'
          [404, { error: 'not found' }]
        else
          begin
            token = bearer_token(request['Authorization'])
            [200, { sub: verify.call(token, request['X-Nonce']) }]
          rescue StandardError, SystemStackError => e # a bad token is never a 500
            [401, { error: "#{e.class}: #{e.message}"[0, 500] }]
          end
        end
      response.status = status
      response['Content-Type'] = 'application/json'
      response.body = JSON.generate(document)
    end
    trap('TERM') { server.shutdown }
    trap('INT') { server.shutdown }
    server.start
  end
end
