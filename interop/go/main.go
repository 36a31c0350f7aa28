// Go crypto/cipher side of gcmkit's interop check.
//
//	verify FILE        decrypt every case (and re-encrypt it), exit 1 on any mismatch
//	generate N SEED    print N random cases encrypted with Go
//
// Case lines: key iv aad pt ct tag, hex, "-" for empty. Go offers either any nonce size
// with 16-byte tags (NewGCMWithNonceSize) or 12-byte nonces with 12..16-byte tags
// (NewGCMWithTagSize); generated cases cover both.
package main

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

func unhex(s string) []byte {
	if s == "-" {
		return nil
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func hx(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}

func aead(key []byte, nonceLen, tagLen int) cipher.AEAD {
	blk, err := aes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	var a cipher.AEAD
	if nonceLen == 12 && tagLen != 16 {
		a, err = cipher.NewGCMWithTagSize(blk, tagLen)
	} else {
		a, err = cipher.NewGCMWithNonceSize(blk, nonceLen)
	}
	if err != nil {
		panic(err)
	}
	return a
}

func main() {
	switch os.Args[1] {
	case "verify":
		f, err := os.Open(os.Args[2])
		if err != nil {
			panic(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		n, bad := 0, 0
		for sc.Scan() {
			p := strings.Fields(sc.Text())
			key, iv, aad, pt, ct, tag := unhex(p[0]), unhex(p[1]), unhex(p[2]), unhex(p[3]), unhex(p[4]), unhex(p[5])
			a := aead(key, len(iv), len(tag))
			got, err := a.Open(nil, iv, append(append([]byte{}, ct...), tag...), aad)
			if err != nil || !bytes.Equal(got, pt) || !bytes.Equal(a.Seal(nil, iv, pt, aad), append(append([]byte{}, ct...), tag...)) {
				bad++
				fmt.Fprintf(os.Stderr, "case %d: mismatch (key %d B, iv %d B, tag %d B)\n", n, len(key), len(iv), len(tag))
			}
			n++
		}
		fmt.Printf("go verify: %d passed, %d failed\n", n-bad, bad)
		if bad > 0 {
			os.Exit(1)
		}
	case "generate":
		n, _ := strconv.Atoi(os.Args[2])
		seed, _ := strconv.ParseInt(os.Args[3], 10, 64)
		r := rand.New(rand.NewSource(seed))
		rb := func(k int) []byte { b := make([]byte, k); r.Read(b); return b }
		w := bufio.NewWriter(os.Stdout)
		for i := 0; i < n; i++ {
			key := rb([]int{16, 24, 32}[r.Intn(3)])
			ivLen, tagLen := 12, 16
			if r.Intn(2) == 0 {
				ivLen = 1 + r.Intn(128)
			} else {
				tagLen = 12 + r.Intn(5)
			}
			iv, aad, pt := rb(ivLen), rb(r.Intn(100)), rb([]int{0, 1, 15, 16, 17, r.Intn(5000)}[r.Intn(6)])
			out := aead(key, ivLen, tagLen).Seal(nil, iv, pt, aad)
			fmt.Fprintln(w, hx(key), hx(iv), hx(aad), hx(pt), hx(out[:len(pt)]), hx(out[len(pt):]))
		}
		w.Flush()
	}
}
