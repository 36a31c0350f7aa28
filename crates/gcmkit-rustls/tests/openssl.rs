//! Loopback interop with the `openssl` command-line tool (127.0.0.1 only, every wait
//! bounded, the child killed at the end): a gcmkit client downloads 1 MiB from
//! `openssl s_server -WWW`, and `openssl s_client` uploads 256 KiB to a gcmkit server that
//! echoes it back, for each of the six suites.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use common::*;
use rustls::pki_types::ServerName;
use rustls::{ClientConnection, ServerConnection, StreamOwned, SupportedCipherSuite};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A child process killed and reaped when the test ends, however it ends.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A per-test directory, removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("gcmkit-rustls-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Version flag and cipher-selection arguments naming exactly `suite` to OpenSSL.
fn openssl_suite_args(suite: SupportedCipherSuite) -> [&'static str; 3] {
    let name = format!("{:?}", suite.suite());
    let tls12 = |cipher| ["-tls1_2", "-cipher", cipher];
    match name.as_str() {
        "TLS13_AES_128_GCM_SHA256" => ["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256"],
        "TLS13_AES_256_GCM_SHA384" => ["-tls1_3", "-ciphersuites", "TLS_AES_256_GCM_SHA384"],
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256" => tls12("ECDHE-ECDSA-AES128-GCM-SHA256"),
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384" => tls12("ECDHE-ECDSA-AES256-GCM-SHA384"),
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256" => tls12("ECDHE-RSA-AES128-GCM-SHA256"),
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384" => tls12("ECDHE-RSA-AES256-GCM-SHA384"),
        other => panic!("no OpenSSL name for {other}"),
    }
}

fn openssl() -> Command {
    let ok = Command::new("openssl")
        .arg("version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        ok,
        "the `openssl` command is needed (Debian: apt-get install openssl)"
    );
    Command::new("openssl")
}

/// Printable payload without lines starting with s_client's command letters.
fn digits(len: usize, seed: u8) -> Vec<u8> {
    pattern(len, seed)
        .iter()
        .enumerate()
        .map(|(i, b)| if i % 64 == 63 { b'\n' } else { b'0' + b % 10 })
        .collect()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits (bounded) for `openssl s_server` to print ACCEPT, i.e. to listen.
fn wait_for_accept(child: &mut Child) {
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { return };
            if line.contains("ACCEPT") {
                let _ = tx.send(());
            }
        }
    });
    rx.recv_timeout(TIMEOUT)
        .expect("openssl s_server did not start listening");
}

fn gcmkit_client_downloads_from_openssl_s_server(suite: SupportedCipherSuite) {
    let dir = TempDir::new(&format!("s_server-{:?}", suite.suite()));
    let leaf = leaf_for(suite);
    let cert = dir.write("cert.pem", &leaf.cert_pem);
    let key = dir.write("key.pem", &leaf.key_pem);
    let file = digits(1 << 20, 5);
    dir.write("data.txt", &file);
    let port = free_port();
    let mut child = openssl()
        .current_dir(&dir.0)
        .args([
            "s_server",
            "-accept",
            &format!("127.0.0.1:{port}"),
            "-naccept",
            "1",
            "-WWW",
        ])
        .arg("-cert")
        .arg(&cert)
        .arg("-key")
        .arg(&key)
        .args(openssl_suite_args(suite))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_accept(&mut child);
    let _child = Reaped(child);

    let config = Arc::new(client_config(gcmkit_only(suite), suite));
    let tcp = TcpStream::connect(("127.0.0.1", port)).unwrap();
    tcp.set_read_timeout(Some(TIMEOUT)).unwrap();
    tcp.set_write_timeout(Some(TIMEOUT)).unwrap();
    let conn = ClientConnection::new(config, ServerName::try_from("localhost").unwrap()).unwrap();
    let mut tls = StreamOwned::new(conn, tcp);
    tls.write_all(b"GET /data.txt HTTP/1.0\r\n\r\n").unwrap();
    let mut response = Vec::new();
    match tls.read_to_end(&mut response) {
        Ok(_) => {}
        // s_server may close without close_notify; the length check below still holds.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {}
        Err(e) => panic!("{:?}: reading the response: {e}", suite.suite()),
    }
    assert!(same_suite(
        tls.conn.negotiated_cipher_suite().unwrap(),
        suite
    ));
    let body_at = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("HTTP header")
        + 4;
    assert!(
        response.starts_with(b"HTTP/1.0 200"),
        "{:?}",
        String::from_utf8_lossy(&response[..body_at])
    );
    assert!(
        response[body_at..] == file[..],
        "{:?}: the 1 MiB body arrived intact",
        suite.suite()
    );
}

fn openssl_s_client_uploads_to_gcmkit_server(suite: SupportedCipherSuite) {
    let dir = TempDir::new(&format!("s_client-{:?}", suite.suite()));
    let ca = dir.write("ca.pem", &pki().ca_pem);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let upload = digits(256 << 10, 9);
    let child = openssl()
        .args(["s_client", "-connect", &format!("127.0.0.1:{port}")])
        .args([
            "-servername",
            "localhost",
            "-verify_return_error",
            "-quiet",
            "-nocommands",
        ])
        .arg("-CAfile")
        .arg(&ca)
        .args(openssl_suite_args(suite))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut child = Reaped(child);
    let mut stdin = child.0.stdin.take().unwrap();
    let to_send = upload.clone();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&to_send);
        // s_client keeps the connection open after stdin ends (-quiet implies -ign_eof).
    });
    let mut stdout = child.0.stdout.take().unwrap();
    let echoed = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });

    // Accept with a bound on the wait.
    listener.set_nonblocking(true).unwrap();
    let start = Instant::now();
    let tcp = loop {
        match listener.accept() {
            Ok((tcp, _)) => break tcp,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && start.elapsed() < TIMEOUT => {
                std::thread::sleep(Duration::from_millis(10))
            }
            Err(e) => panic!("openssl s_client did not connect: {e}"),
        }
    };
    tcp.set_nonblocking(false).unwrap();
    tcp.set_read_timeout(Some(TIMEOUT)).unwrap();
    tcp.set_write_timeout(Some(TIMEOUT)).unwrap();
    let config = Arc::new(server_config(gcmkit_only(suite), suite));
    let mut tls = StreamOwned::new(ServerConnection::new(config).unwrap(), tcp);
    let mut got = vec![0u8; upload.len()];
    tls.read_exact(&mut got).unwrap();
    assert!(
        got == upload,
        "{:?}: the 256 KiB upload arrived intact",
        suite.suite()
    );
    assert!(same_suite(
        tls.conn.negotiated_cipher_suite().unwrap(),
        suite
    ));
    let reply: Vec<u8> = got.iter().rev().copied().collect();
    tls.write_all(&reply).unwrap();
    tls.conn.send_close_notify();
    tls.flush().unwrap();
    drop(tls);
    let echoed = echoed.join().unwrap();
    assert!(
        echoed == reply,
        "{:?}: s_client received the 256 KiB reply",
        suite.suite()
    );
}

#[test]
fn gcmkit_client_against_openssl_s_server_every_suite() {
    for &suite in gcmkit_suites() {
        gcmkit_client_downloads_from_openssl_s_server(suite);
    }
}

#[test]
fn openssl_s_client_against_gcmkit_server_every_suite() {
    for &suite in gcmkit_suites() {
        openssl_s_client_uploads_to_gcmkit_server(suite);
    }
}
