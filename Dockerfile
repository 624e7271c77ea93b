# The limited-login provider in a container: the release binary (built by scripts/release, which links the
# Swift runtime in) on Debian 12 slim, without Swift.
#
#   scripts/release && docker build -t limited-login .
#   docker run --rm -p 8080:8080 limited-login
#
# The state lives in /var/lib/limited-login (mount a volume there to keep it). Every `serve` option is also an
# environment variable: set LIMITED_LOGIN_PUBLIC_URL to the address clients use when it is not
# http://localhost:8080, and LIMITED_LOGIN_DATABASE to a postgres:// URL for several nodes.
FROM debian:bookworm-slim
COPY .build/release-artifacts/limited-login /usr/local/bin/limited-login
RUN useradd --system --home-dir /var/lib/limited-login --create-home limited-login
USER limited-login
WORKDIR /var/lib/limited-login
ENV LIMITED_LOGIN_HOST=0.0.0.0 \
    LIMITED_LOGIN_PORT=8080 \
    LIMITED_LOGIN_PUBLIC_URL=http://localhost:8080
EXPOSE 8080
ENTRYPOINT ["limited-login"]
CMD ["serve"]
