#!/usr/bin/env python3
"""The avx2 stitched batch of AES-128-GCM written out by hand, in variants (src/batch.s).

One loop iteration is one batch of gcmkit's avx2 kernel (engine/kernels/gcm.rs, `batch`):
8 AES states of 2 blocks (256 bytes) started from the round-one table (a table row XORed
into a counter base), 8 more rounds, the last round, the source XORed in and stored; in
rounds 0-7 one 256-bit vector of the previous batch's output is hashed each (loaded,
byte-reversed, Karatsuba: 3 carry-less multiplies against its power and helper, summed),
vector 0 carrying the running value; the sums are reduced (2 multiplies) into it at the
end. True dependencies throughout: AES chains, sums, the carried value.

Registers: ymm0-7 AES states, ymm8 the running value, ymm9-11 sums (lo, mid, hi), ymm12-14
temporaries, ymm15 the round key. Memory (all L1 hits, fixed addresses): round keys,
shuffle mask, powers and helpers, the reduction constant, table rows, the hashed vectors
and the source at offsets of `p` (rsi); the output at `q` (rdx). Each variant is a
function `v_<name>(n, p, q)` running n batches.

Variants take away one thing at a time (what it costs is the difference to `real`):
- real: as above, powers and helpers as memory operands of the multiplies (as the
  compiled kernel has them), 68 loads and 8 stores a batch, no spills;
- regs_only: no memory but the table and round keys (powers from a register, hashed
  vectors made by a shuffle, no source XOR or store);
- regs_clmul0 / regs_clmul_half / regs_clmul_third: regs_only with all, half or two in
  three of the 26 multiplies turned into XORs;
- regs_aes_half: regs_only with every other AES instruction turned into an XOR (44 of
  the 80 remain);
- aes_only: the AES part alone (80 AES instructions, no hashing);
- reg_powers, reg_prev, no_stores: real without one kind of memory access;
- order_*: real with another interleaving of a round's AES and hashing instructions
  (`na` AES instructions then `nh` hashing ones, hashing first with `lead`);
- pair_real / pair_deferred: two `real` batches an iteration; in pair_deferred the first
  leaves its sums unreduced and the second adds its products to them (one reduction per
  512 bytes, as a kernel would with the first batch's powers one batch higher). The
  timer reports every variant per 256-byte batch (`variants.rs` carries each one's
  batches per iteration, counted here from its `vaesenclast` instructions).
"""

KEYS, MASK, H, K, TAB, PREV, SRC = 0, 512, 1024, 1600, 2048, 4096, 4608


def batch(mem_powers=True, mem_prev=True, stores=True, clmul_keep=1, aes_keep=1,
          na=2, nh=2, lead=False, carry_in=False, reduce=True):
    out = [f"vpxor ymm{i}, ymm15, ymmword ptr [rsi + {TAB + 32 * i}]" for i in range(8)]
    hashes = []
    for j in range(8):
        h = []
        if mem_prev:
            h += [f"vmovdqu ymm12, ymmword ptr [rsi + {PREV + 32 * j}]",
                  f"vpshufb ymm12, ymm12, ymmword ptr [rsi + {MASK}]"]
        else:
            h += ["vpshufb ymm12, ymm15, ymm15"]
        if j == 0 and not carry_in:
            h += ["vpxor ymm12, ymm12, ymm8"]
        h += ["vpshufd ymm13, ymm12, 0x4e", "vpxor ymm13, ymm13, ymm12"]
        def pw(off):
            return f"ymmword ptr [rsi + {H + 64 * j + off}]" if mem_powers else "ymm15"
        if j == 0 and not carry_in:
            h += [f"vpclmulqdq ymm9, ymm12, {pw(0)}, 0x00",
                  f"vpclmulqdq ymm11, ymm12, {pw(0)}, 0x11",
                  f"vpclmulqdq ymm10, ymm13, {pw(32)}, 0x00"]
        else:
            h += [f"vpclmulqdq ymm14, ymm12, {pw(0)}, 0x00", "vpxor ymm9, ymm9, ymm14",
                  f"vpclmulqdq ymm14, ymm12, {pw(0)}, 0x11", "vpxor ymm11, ymm11, ymm14",
                  f"vpclmulqdq ymm14, ymm13, {pw(32)}, 0x00", "vpxor ymm10, ymm10, ymm14"]
        hashes.append(h)

    def aes_round(r):
        return ([f"vmovdqa ymm15, ymmword ptr [rsi + {KEYS + 32 * r}]"]
                + [f"vaesenc ymm{i}, ymm{i}, ymm15" for i in range(8)])

    for r in range(8):
        a, h = aes_round(r), hashes[r]
        merged, ai, hi = [a[0]], 1, 0
        while ai < len(a) or hi < len(h):
            if lead:
                merged += h[hi:hi + nh]; hi += nh
            merged += a[ai:ai + na]; ai += na
            if not lead:
                merged += h[hi:hi + nh]; hi += nh
        out += merged
    out += aes_round(8)
    # Reduction: mid += lo + hi; m = mid + swap(lo) + lo*K; a = hi + swap(m) + m*K.
    red = ["vpxor ymm10, ymm10, ymm9", "vpxor ymm10, ymm10, ymm11",
            f"vpclmulqdq ymm13, ymm9, ymmword ptr [rsi + {K}], 0x00",
            "vpshufd ymm14, ymm9, 0x4e", "vpxor ymm10, ymm10, ymm13", "vpxor ymm10, ymm10, ymm14",
            f"vpclmulqdq ymm13, ymm10, ymmword ptr [rsi + {K}], 0x00",
            "vpshufd ymm14, ymm10, 0x4e", "vpxor ymm8, ymm11, ymm13", "vpxor ymm8, ymm8, ymm14"]
    if reduce:
        out += red
    out.append(f"vmovdqa ymm15, ymmword ptr [rsi + {KEYS + 32 * 9}]")
    for i in range(8):
        out.append(f"vaesenclast ymm{i}, ymm{i}, ymm15")
        if stores:
            out += [f"vpxor ymm{i}, ymm{i}, ymmword ptr [rsi + {SRC + 32 * i}]",
                    f"vmovdqu ymmword ptr [rdx + {32 * i}], ymm{i}"]
    # Take multiplies or AES rounds away (the same operands, an XOR instead).
    n_clmul = n_aes = 0
    for k, line in enumerate(out):
        if line.startswith("vpclmulqdq"):
            n_clmul += 1
            if clmul_keep == 0 or (clmul_keep > 1 and n_clmul % clmul_keep):
                ops = line[len("vpclmulqdq"):].rsplit(",", 1)[0]
                out[k] = "vpxor" + ops
        elif line.startswith("vaesenc "):
            n_aes += 1
            if aes_keep > 1 and n_aes % aes_keep:
                out[k] = "vpxor" + line[len("vaesenc"):]
    return out


def aes_only():
    out = [f"vpxor ymm{i}, ymm15, ymmword ptr [rsi + {TAB + 32 * i}]" for i in range(8)]
    for r in range(9):
        out.append(f"vmovdqa ymm15, ymmword ptr [rsi + {KEYS + 32 * r}]")
        out += [f"vaesenc ymm{i}, ymm{i}, ymm15" for i in range(8)]
    out.append(f"vmovdqa ymm15, ymmword ptr [rsi + {KEYS + 32 * 9}]")
    out += [f"vaesenclast ymm{i}, ymm{i}, ymm15" for i in range(8)]
    return out


REGS = dict(mem_powers=False, mem_prev=False, stores=False)
VARIANTS = {
    "real": batch(),
    "regs_only": batch(**REGS),
    "regs_clmul0": batch(**REGS, clmul_keep=0),
    "regs_clmul_half": batch(**REGS, clmul_keep=2),
    "regs_clmul_third": batch(**REGS, clmul_keep=3),
    "regs_aes_half": batch(**REGS, aes_keep=2),
    "aes_only": aes_only(),
    "reg_powers": batch(mem_powers=False),
    "reg_prev": batch(mem_prev=False),
    "no_stores": batch(stores=False),
    "order_1_4L": batch(na=1, nh=4, lead=True),
    "order_3_4L": batch(na=3, nh=4, lead=True),
    "order_8_all": batch(na=8, nh=30, lead=True),
    # Two batches an iteration, the first's sums carried unreduced into the second (its
    # powers would be H^32..H^18): one reduction per 512 bytes.
    "pair_real": batch() + batch(),
    "pair_deferred": batch(reduce=False) + batch(carry_in=True),
}

if __name__ == "__main__":
    s = [".text"]
    for name, body in VARIANTS.items():
        s += [f".globl v_{name}", f"v_{name}:", "2:"] + body
        s += ["dec rdi", "jnz 2b", "vzeroupper", "ret"]
    with open("src/batch.s", "w") as f:
        f.write("\n".join(s) + "\n")
    # The assembly takes its arguments in rdi, rsi, rdx (the System V convention).
    sig = "(n: u64, p: *const u8, q: *mut u8)"
    with open("src/variants.rs", "w") as f:
        f.write("extern \"sysv64\" {\n")
        f.write("".join(f"    fn v_{n}{sig};\n" for n in VARIANTS) + "}\n")
        f.write("type Variant = unsafe extern \"sysv64\" fn(u64, *const u8, *mut u8);\n")
        # Batches per iteration, counted from the body: each batch ends with 8 `vaesenclast`.
        batches = {n: sum(l.startswith("vaesenclast") for l in b) // 8 for n, b in VARIANTS.items()}
        f.write("/// (name, batches per iteration, function)\n")
        f.write("const VARIANTS: &[(&str, u32, Variant)] = &[\n")
        f.write("".join(f"    (\"{n}\", {batches[n]}, v_{n}),\n" for n in VARIANTS) + "];\n")
