"""A TLS echo on 127.0.0.1 through Python's ssl module (whatever OPENSSL_CONF loads):
the client sends 4 MiB in pieces, the server echoes them, the client compares.
    tls_echo.py CERT KEY TLSv1_3|TLSv1_2
"""
import os
import socket
import ssl
import sys
import threading


def main(cert, key, version):
    v = getattr(ssl.TLSVersion, version)
    sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    sctx.load_cert_chain(cert, key)
    sctx.minimum_version = sctx.maximum_version = v
    if v == ssl.TLSVersion.TLSv1_2:
        sctx.set_ciphers("ECDHE-RSA-AES128-GCM-SHA256")
    cctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    cctx.load_verify_locations(cert)
    cctx.check_hostname = False
    cctx.minimum_version = cctx.maximum_version = v
    lsock = socket.create_server(("127.0.0.1", 0))
    lsock.settimeout(30)
    port = lsock.getsockname()[1]

    def serve():
        conn, _ = lsock.accept()
        with sctx.wrap_socket(conn, server_side=True) as s:
            while True:
                d = s.recv(65536)
                if not d:
                    break
                s.sendall(d)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    data = os.urandom(4 << 20)
    got = bytearray()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        with cctx.wrap_socket(raw, server_hostname="localhost") as c:
            cipher = c.cipher()[0]
            step = 100_000
            for i in range(0, len(data), step):
                c.sendall(data[i : i + step])
                while len(got) < min(i + step, len(data)):
                    got += c.recv(65536)
    # The server sees the close and ends: its records are all counted before exit.
    t.join(10)
    ok = bytes(got) == data
    print(f"{cipher} {len(got)} bytes echoed {'byte-exact' if ok else 'DIFFERENT'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(*sys.argv[1:4])
