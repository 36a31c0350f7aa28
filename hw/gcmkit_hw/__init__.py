"""gcmkit-hw: AES-128-GCM as synthesizable RTL in Amaranth HDL.

Layers (each imports only the ones above it):
  ref      -- the host side: AES-128 key schedule, S-box table, GF(2^128) reference math
  gf128    -- Amaranth expression builders for GF(2^128) in GCM's bit order
  aes      -- the ten-stage AES-128 encryption round pipeline (RTL)
  ghash    -- GHASH units: digit-serial (D = 8/16/32/128 = parallel) and even/odd (RTL)
  gcm      -- the GCM core: the spec's three data paths around one AES pipeline (RTL)
  sim      -- cycle-accurate simulation driver (packets in, blocks/tags out, cycle stamps)
  synth    -- Yosys / nextpnr-ecp5 runs and their parsing
  cli      -- the `gcmkit-hw` command
"""
