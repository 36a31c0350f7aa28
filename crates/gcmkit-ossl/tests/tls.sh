#!/usr/bin/env bash
# Real TLS on 127.0.0.1 with gcmkit doing the records: `openssl s_server -WWW` sends a
# file of $TLS_MIB MiB to `openssl s_client`, one side on gcmkit (OPENSSL_CONF loading it
# with default_properties = ?provider=gcmkit), the other on OpenSSL's default provider,
# both ways, for TLS 1.3 TLS_AES_128_GCM_SHA256 / TLS_AES_256_GCM_SHA384 and TLS 1.2
# ECDHE-RSA-AES128-GCM-SHA256 / ECDHE-RSA-AES256-GCM-SHA384. The received file must be
# byte-exact and the gcmkit side's stats line must count records of the suite's cipher.
#   tls.sh PROVIDER_DIR PYTHON
set -euo pipefail
PROV_DIR=$(cd "$1" && pwd)
PYTHON=${2:-python3}
MIB=${TLS_MIB:-32}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/gcmkit-ossl-tls.XXXXXX)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

cat > "$WORK/gcmkit.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
gcmkit = gcmkit_sect
[default_sect]
activate = 1
[gcmkit_sect]
module = $PROV_DIR/gcmkit.so
activate = 1
[evp_properties]
default_properties = ?provider=gcmkit
CNF

cd "$WORK"
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 1 \
    -subj /CN=localhost 2>/dev/null
head -c $((MIB << 20)) /dev/urandom > big.bin

free_port() {
    "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

fails=0
run() { # run SUITE_ARGS_SERVER SUITE_ARGS_CLIENT GCMKIT_SIDE CIPHER LABEL
    local sargs=$1 cargs=$2 side=$3 cipher=$4 label=$5 port senv cenv
    port=$(free_port)
    senv=(env -u OPENSSL_CONF); cenv=(env -u OPENSSL_CONF)
    if [ "$side" = server ]; then senv=(env OPENSSL_CONF="$WORK/gcmkit.cnf" GCMKIT_PROVIDER_STATS=1);
    else cenv=(env OPENSSL_CONF="$WORK/gcmkit.cnf" GCMKIT_PROVIDER_STATS=1); fi
    "${senv[@]}" timeout 60 openssl s_server -accept "127.0.0.1:$port" -naccept 1 -WWW \
        -cert cert.pem -key key.pem $sargs > server.out 2> server.err &
    local spid=$!
    PIDS+=("$spid")
    for _ in $(seq 50); do
        # Not a probe connection: -naccept 1 would spend its one accept on it.
        grep -q ACCEPT server.out 2>/dev/null && break
        sleep 0.1
    done
    printf 'GET /big.bin HTTP/1.0\r\n\r\n' | "${cenv[@]}" timeout 60 openssl s_client \
        -connect "127.0.0.1:$port" -quiet $cargs > client.out 2> client.err || true
    wait "$spid" 2>/dev/null || true
    # Strip the HTTP header s_server -WWW puts before the file.
    "$PYTHON" - <<PY
import sys
d = open("client.out", "rb").read()
i = d.find(b"\r\n\r\n")
open("got.bin", "wb").write(d[i + 4:] if i >= 0 else b"")
PY
    local stats
    stats=$(grep -h "^gcmkit provider:" server.err client.err || true)
    if cmp -s got.bin big.bin && [[ "$stats" == *"$cipher encrypt"* ]] \
        && ! [[ "$stats" =~ "$cipher encrypt 0, decrypt 0" ]]; then
        echo "ok   $label, gcmkit on the $side: $MIB MiB byte-exact; $stats"
    else
        echo "FAIL $label, gcmkit on the $side: received $(stat -c %s got.bin) bytes; stats: ${stats:-none}"
        tail -n 3 server.err client.err || true
        fails=$((fails + 1))
    fi
}

for side in server client; do
    run "-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256" "-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256" \
        $side AES-128-GCM "TLS 1.3 TLS_AES_128_GCM_SHA256"
    run "-tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384" "-tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384" \
        $side AES-256-GCM "TLS 1.3 TLS_AES_256_GCM_SHA384"
    run "-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256" "-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256" \
        $side AES-128-GCM "TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256"
    run "-tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384" "-tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384" \
        $side AES-256-GCM "TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384"
done

# Python's ssl through OPENSSL_CONF: a TLS echo on 127.0.0.1, both ends in one process.
for ver in TLSv1_3 TLSv1_2; do
    if OPENSSL_CONF="$WORK/gcmkit.cnf" GCMKIT_PROVIDER_STATS=1 timeout 60 "$PYTHON" \
        "$HERE/tls_echo.py" "$WORK/cert.pem" "$WORK/key.pem" "$ver" > py.out 2> py.err \
        && grep -Eq "GCM encrypt [1-9][0-9]*, decrypt [1-9]" py.err; then
        echo "ok   Python ssl $ver echo: $(cat py.out); $(grep '^gcmkit provider:' py.err)"
    else
        echo "FAIL Python ssl $ver echo"; cat py.out py.err | tail -n 5
        fails=$((fails + 1))
    fi
done
exit $((fails > 0))
