#!/usr/bin/env python3
"""Cargo runner for wasm32-wasip1: runs a WASI module (a test binary) under wasmtime's
Python embedding (PyPI `wasmtime`), with the arguments cargo passes, stdout and stderr
inherited, and the module's exit code as ours. Used by `make test-wasm`."""
import sys

from wasmtime import Engine, ExitTrap, Linker, Module, Store, WasiConfig


def main() -> int:
    path, args = sys.argv[1], sys.argv[2:]
    engine = Engine()
    linker = Linker(engine)
    linker.define_wasi()
    store = Store(engine)
    wasi = WasiConfig()
    wasi.argv = [path, *args]
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    store.set_wasi(wasi)
    instance = linker.instantiate(store, Module.from_file(engine, path))
    try:
        instance.exports(store)["_start"](store)
    except ExitTrap as e:
        return e.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
