#!/usr/bin/env bash
# Regenerates Fuzz/Corpus/FuzzRequest/, FuzzBundleScan/, FuzzOFREP/ and FuzzPromotion/: real requests to the daemon (the ones the README and
# the clients send) and the path and header shapes the server tests refuse. The files are
# committed, so `scripts/fuzz` does not need this script.
set -euo pipefail
cd "$(dirname "$0")"
out=FuzzRequest
rm -rf "$out"
mkdir -p "$out"
n=0
seed() { n=$((n + 1)); printf '%b' "$1" >"$out/$(printf '%03d' $n)"; }

crlf='\r\n'
tag='"cbf29ce484222325"'
# What the clients send: RemoteSpecSource (long-poll, SSE, poll), livery push, curl.
seed "GET /v1/spec HTTP/1.1${crlf}Host: 127.0.0.1:7878${crlf}${crlf}"
seed "GET /v1/spec HTTP/1.1${crlf}Host: 127.0.0.1:7878${crlf}If-None-Match: ${tag}${crlf}${crlf}GET /v1/spec HTTP/1.1${crlf}Connection: keep-alive, close${crlf}${crlf}"
seed "GET /v1/spec HTTP/1.1${crlf}if-none-match:\t${tag} ${crlf}Content-Length: 0${crlf}${crlf}"
seed "GET /v1/spec?wait=30s HTTP/1.1${crlf}Host: 127.0.0.1:7878${crlf}If-None-Match: ${tag}${crlf}${crlf}"
seed "GET /v1/spec?wait=500ms HTTP/1.1${crlf}If-None-Match: W/${tag}, \"abc\"${crlf}If-None-Match: \"def\"${crlf}${crlf}"
seed "GET /v1/spec?wait=2m&x=1 HTTP/1.1${crlf}If-None-Match: *${crlf}${crlf}"
seed "GET /v1/events HTTP/1.1${crlf}Accept: text/event-stream${crlf}Last-Event-ID: ${tag}${crlf}${crlf}"
seed "GET /v1/events HTTP/1.1${crlf}Last-Event-ID: cbf29ce484222325${crlf}${crlf}"
seed "GET /v1/specs HTTP/1.1${crlf}${crlf}"
seed "GET /v1/specs/card.yaml HTTP/1.1${crlf}If-None-Match: ${tag}${crlf}${crlf}"
seed "GET /v1/specs/sub/theme.yml HTTP/1.1${crlf}${crlf}"
seed "PUT /v1/specs/card.yaml HTTP/1.1${crlf}Authorization: Bearer s3cret-token${crlf}Content-Type: application/yaml${crlf}If-Match: ${tag}${crlf}Content-Length: 52${crlf}${crlf}specs:\n  card:\n    - { type: CornerRadius, radius: 8 }\n"
seed "PUT /v1/specs/palette.json HTTP/1.1${crlf}Authorization: bearer s3cret-token${crlf}X-Token: s3cret-token\n${crlf}{\"variables\": {\"colors\": {\"accent\": \"#0A84FF\"}}}"
seed "DELETE /v1/specs/old.yaml HTTP/1.1${crlf}Authorization: Bearer wrong${crlf}If-Match: *${crlf}${crlf}"
seed "PUT /v1/specs/card.yaml HTTP/1.1${crlf}Authorization: Basic czNjcmV0${crlf}${crlf}"
# Paths the rules refuse: escapes, absolute, hidden, other extensions, bad encodings.
for path in '../etc/passwd.yaml' '%2e%2e/secret.yaml' '..%2Fsecret.yaml' 'a/../../b.yaml' '/etc/x.yaml' \
    '%2Fetc%2Fx.yaml' '.hidden.yaml' 'sub/.git/config.yaml' 'card.txt' 'card.yaml%00.json' 'card%ZZ.yaml' \
    '%C0%AE%C0%AE/x.yaml' 'a//b/./c.YML' 'sub%5c..%5cx.yaml' 'caf%C3%A9.yaml' '.' '' 'x.yaml/'; do
    seed "GET /v1/specs/${path} HTTP/1.1${crlf}${crlf}"
done
for wait in 0 30 1.5s 10m 999999 -1 1e3 abc '' 5S; do
    seed "GET /v1/spec?wait=${wait} HTTP/1.1${crlf}If-None-Match: ${tag}${crlf}${crlf}"
done
# The Livery-Client header clients send (version mode), and shapes its parser must refuse or skip.
seed "GET /v1/version?since=cbf29ce484222325&wait=30s HTTP/1.1${crlf}Livery-Client: name=\"shop\", instance=\"host-3:4121\", version=\"2.4.1\", applied=\"\\\\\"cbf29ce484222325\\\\\"\", skipped=(\"promo.banner\" \"card.badge\"), more=3${crlf}${crlf}"
seed "GET /v1/spec/cbf29ce484222325 HTTP/1.1${crlf}Livery-Client: name=%\"caf%c3%a9\", instance=\"i\";p=1, x=:aGk=:, y=?1, z=-1.25, t=tok/en${crlf}${crlf}"
seed "GET /v1/spec HTTP/1.1${crlf}Livery-Client: name=\"a\",instance=\"b\",, skipped=(\"c\" d), more=-1, name=%\"%ff\"${crlf}${crlf}"

# FuzzBundleScan: plain bundle requests as the raw reader sees them, with the Host and
# Authorization shapes the admission rule decides on (loopback names, ports, IPv6, a rebound
# name, two Host lines, the two fixed tokens of AdmissionChecks and near misses).
out=FuzzBundleScan
rm -rf "$out"
mkdir -p "$out"
n=0
for host in 'localhost' '127.0.0.1:7878' '[::1]' '[::1]:7878' 'LOCALHOST:' 'livery.example:443' 'evil.example' \
    'localhost.' '[::1]x' 'localhost:7a' ''; do
    seed "GET /v1/spec HTTP/1.1${crlf}Host: ${host}${crlf}If-None-Match: ${tag}${crlf}${crlf}"
done
for authorization in 'Bearer reader-token' 'bearer pusher' 'Bearer reader-toke' 'Bearer reader-tokenx' 'Basic x' \
    'Bearer  pusher' 'BEARER pusher'; do
    seed "HEAD /v1/spec HTTP/1.1${crlf}Host: localhost${crlf}Authorization: ${authorization}${crlf}Accept-Encoding: gzip${crlf}${crlf}"
done
seed "GET /v1/spec HTTP/1.1${crlf}Host: localhost${crlf}Host: evil.example${crlf}${crlf}"
seed "GET /v1/spec HTTP/1.1${crlf}Authorization: Bearer pusher${crlf}Authorization: Bearer pusher${crlf}Host: localhost${crlf}${crlf}"
seed "GET /v1/spec HTTP/1.1${crlf}host:\t127.0.0.1 ${crlf}Connection: close${crlf}${crlf}GET /v1/spec HTTP/1.1${crlf}${crlf}"

# OpenFeature evaluations as the providers send them, at the default and an environment's paths,
# and the bodies the protocol's errors answer (OFREPEndpointTests' table).
out=FuzzOFREP
rm -rf "$out"
mkdir -p "$out"
n=0
json="Content-Type: application/json${crlf}"
for path in /ofrep/v1/evaluate/flags/colors.accent /ofrep/v1/evaluate/flags /ofrep/v1/evaluate/flags/card.title%3Aretries \
    /v1/environments/staging/ofrep/v1/evaluate/flags/colors.accent /v1/environments/staging/ofrep/v1/evaluate/flags \
    '/v1/environments/staging/spec?from=prod' /v1/environments//spec /v1/environments/x /v1/environments/Bad_Name/ofrep/v1/events \
    '/ofrep/v1/evaluate/flags/caf%C3%A9%22%5C%00'; do
    seed "POST ${path} HTTP/1.1${crlf}Host: 127.0.0.1${crlf}${json}X-API-Key: reader${crlf}${crlf}{\"context\": {\"theme\": \"dark\", \"targetingKey\": \"instance-1\", \"plan\": 3}}"
done
for body in '{}' '{"context": null}' '{"context": {}}' '{' '[]' '3' '{"context": 3}' '{"context": {"theme": 3}}' \
    '{"context": {"theme": "dusk"}}' '{"context": {"targetingKey": ""}}' '{"context": {"targetingKey": null, "theme": null}}' \
    '{"context": {"theme": "a", "theme": "b"}}' '{"context": {"targetingKey": "\\u00e9\\ud83d\\ude00"}}' '' \
    '{"context": 09}' '{"plan": 09, "context": {}}' '{"context": 1, "context": {}}'; do
    seed "POST /ofrep/v1/evaluate/flags/colors.accent HTTP/1.1${crlf}${json}${crlf}${body}"
done

# Promotion bodies as `livery promote` sends them, and the shapes the route refuses.
out=FuzzPromotion
rm -rf "$out"
mkdir -p "$out"
n=0
for body in '{"from": "staging"}' '{"from": "staging", "revision": 12, "message": "ship it"}' \
    '{"from": "staging", "etag": "\"cbf29ce484222325\""}' '{"from": "staging", "etag": "W/\"abc\""}' \
    '{"from": "staging", "rollout": "10%"}' '{"from": "staging", "rollout": 12.5}' '{"from": "staging", "rollout": "0.01%"}' \
    '{"from": "staging", "rollout": 100}' '{"from": "staging", "rollout": "101"}' '{"from": "staging", "rollout": 12.345}' \
    '{"from": "staging", "revision": 3, "etag": "x"}' '{"from": 3}' '{"revision": 1}' '{"from": "a", "rollout": true}' \
    '{"from": "a", "rollout": 1e1}' '{"from": "a", "rollout": " 5 % "}'; do
    seed "$body"
done
