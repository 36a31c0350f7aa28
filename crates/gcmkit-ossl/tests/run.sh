#!/usr/bin/env bash
# make test-provider: the provider through EVP and TLS.
#   1. OpenSSL's EVP test data (tests/data, Apache-2.0) and Wycheproof AES-GCM/GCM-SIV
#      through EVP with the cipher fetched from gcmkit, in random pieces (two seeds);
#   2. bad input: the misuse list must print exactly what OpenSSL's default provider
#      prints for AES-GCM (return codes, error reasons, TLS records), and for AES-GCM-SIV
#      (not in OpenSSL 3.0) what tests/data/bad_input_siv.expected records, written from
#      OpenSSL 3.2's cipher_aes_gcm_siv.c;
#   3. the EVP runner under valgrind memcheck (aesni engine: valgrind cannot run VAES);
#      without valgrind this fails under CI (CI=true) and elsewhere is skipped, which
#      make's closing table shows (scripts/leg-skip.sh);
#   4. real TLS on 127.0.0.1 (tls.sh);
#   5. the speed guard (speed_guard.c): gcmkit's EVP AES-GCM at no less than half of
#      OpenSSL's own, as a ratio in one process (under a second).
#   run.sh PYTHON WYCHEPROOF_DATA_DIR
set -euo pipefail
PYTHON=${1:-python3}
WYCHEPROOF=$2
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
T=$ROOT/crates/gcmkit-ossl/tests
PROV=$ROOT/target/provider
OUT=$(mktemp -d /tmp/gcmkit-ossl-test.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM
start=$SECONDS

gcc -O1 -g -Wall -Werror -o "$OUT/evp_runner" "$T/evp_runner.c" -lcrypto
R=("$OUT/evp_runner" -p "$PROV" -P gcmkit)

echo "== OpenSSL EVP test data and Wycheproof through EVP (provider=gcmkit)"
"$PYTHON" "$T/wycheproof_to_evp.py" "$WYCHEPROOF" "$OUT/wycheproof.txt"
for seed in 1 2; do
    GCMKIT_PROVIDER_STATS=1 "${R[@]}" -s $seed "$T/data/evpciph_aes_common.txt" "$T/data/evpciph_aes_gcm_siv.txt"
    "${R[@]}" -s $seed "$OUT/wycheproof.txt"
done

echo "== bad input: gcmkit against the default provider"
"${R[@]}" -b > "$OUT/bad_gcmkit.txt"
"$OUT/evp_runner" -p "$PROV" -P default -b > "$OUT/bad_default.txt"
sed '/== AES-128-GCM-SIV/,$d' "$OUT/bad_gcmkit.txt" > "$OUT/bad_gcmkit_gcm.txt"
sed -n '/== AES-128-GCM-SIV/,$p' "$OUT/bad_gcmkit.txt" > "$OUT/bad_gcmkit_siv.txt"
diff -u "$OUT/bad_default.txt" "$OUT/bad_gcmkit_gcm.txt"
diff -u "$T/data/bad_input_siv.expected" "$OUT/bad_gcmkit_siv.txt"
echo "bad input: $(grep -c rc= "$OUT/bad_gcmkit.txt") checks, AES-GCM identical to OpenSSL's ($(grep -c rc= "$OUT/bad_default.txt") lines), AES-GCM-SIV as expected"

echo "== valgrind memcheck (GCMKIT_ENGINE=aesni)"
if command -v valgrind >/dev/null; then
    GCMKIT_ENGINE=aesni valgrind -q --error-exitcode=99 --leak-check=no \
        "${R[@]}" "$T/data/evpciph_aes_common.txt" "$T/data/evpciph_aes_gcm_siv.txt"
    GCMKIT_ENGINE=aesni valgrind -q --error-exitcode=99 --leak-check=no "${R[@]}" -b > /dev/null
    echo "valgrind: no errors"
else
    "$ROOT/scripts/leg-skip.sh" "the provider under valgrind memcheck: valgrind missing (apt-get install valgrind)"
fi

echo "== TLS on 127.0.0.1"
TLS_MIB=${TLS_MIB:-32} "$T/tls.sh" "$PROV" "$PYTHON"
echo "== speed guard: gcmkit's EVP AES-GCM against OpenSSL's default provider, in one process"
gcc -O2 -Wall -Werror -o "$OUT/speed_guard" "$T/speed_guard.c" -lcrypto
"$OUT/speed_guard" -p "$PROV"
echo "test-provider: $((SECONDS - start)) s"
