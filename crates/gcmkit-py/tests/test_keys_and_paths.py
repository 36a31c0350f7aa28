"""Issue #73, Python side of the CLI's rules: one key-file format for every front end
(``gcmkit.load_key_file``), trailing slashes refused as builtin ``open`` refuses them,
truncated files called truncated, and ``context`` given as text."""

import errno
import os

import pytest

import gcmkit
from gcmkit import chunked

FORMAT = "a gcmkit key file is a line of 32 or 64 hex digits, with # comment lines"
KEY128 = bytes(range(16))
KEY256 = bytes(range(100, 132))


def write(path, data, mode=0o600):
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)
    return path


# What `gcmkit keygen` writes (crates/gcmkit-cli/src/crypt.rs).
def keygen_text(key):
    bits = 128 if len(key) == 16 else 256
    return f"# gcmkit key: Cobblestone-{bits} (c2sp.org/chunked-encryption)\n{key.hex()}\n".encode()


@pytest.mark.parametrize("text, key", [
    (keygen_text(KEY128), KEY128),
    (keygen_text(KEY256), KEY256),
    # 32 hex digits without a newline: a 128-bit key, as the CLI reads it (these 32 ASCII
    # bytes used to be taken as a raw 256-bit key).
    (KEY128.hex().encode(), KEY128),
    (KEY128.hex().upper().encode() + b"\r\n", KEY128),
    (b"\n# note\n  " + KEY256.hex().encode() + b"  \n\n", KEY256),
], ids=["keygen-128", "keygen-256", "hex-no-newline", "upper-crlf", "blank-and-comment"])
def test_load_key_file_reads_the_clis_key_files(tmp_path, text, key):
    p = write(tmp_path / "k", text)
    got = gcmkit.load_key_file(p)
    assert type(got) is bytes and got == key
    assert gcmkit.load_key_file(str(p)) == key
    assert "load_key_file" in gcmkit.__all__


@pytest.mark.parametrize("text, what", [
    (bytes(range(0x80, 0x90)), "not text"),  # a raw 16-byte key
    (bytes(range(0xa0, 0xc0)), "not text"),  # a raw 32-byte key
    (b"# only a comment\n", "holds no key"),
    (b"\xef\xbb\xbf" + KEY128.hex().encode(), "byte-order mark"),
    (KEY128.hex().encode() + b"\nnotes\n", "more than one"),
    (b"xyz0\n", "not hex"),
    (b"abc\n", "odd number"),
    (b"00" * 24, "48 hex digits"),
    (b"0" * 5000, "larger than 4096"),
], ids=["raw-16", "raw-32", "no-key", "bom", "two-lines", "not-hex", "odd", "24-bytes", "too-large"])
def test_load_key_file_refuses_anything_else_naming_the_format(tmp_path, text, what):
    p = write(tmp_path / "bad.key", text)
    with pytest.raises(ValueError) as e:
        gcmkit.load_key_file(p)
    msg = str(e.value)
    assert what in msg
    assert FORMAT in msg
    assert "bad.key" in msg


def test_load_key_file_io_errors_are_oserrors_with_the_file_name(tmp_path):
    missing = tmp_path / "absent.key"
    with pytest.raises(FileNotFoundError) as e:
        gcmkit.load_key_file(missing)
    assert e.value.errno == errno.ENOENT
    assert e.value.filename == str(missing)
    with pytest.raises(IsADirectoryError) as e:
        gcmkit.load_key_file(tmp_path)
    assert e.value.filename == str(tmp_path)


def test_a_keygen_key_file_decrypts_what_its_key_encrypted(tmp_path):
    p = write(tmp_path / "k", keygen_text(KEY128))
    key = gcmkit.load_key_file(p)
    src = write(tmp_path / "pt", b"a,b\n1,2\n" * 5000)
    chunked.encrypt_file(key, src, tmp_path / "ct")
    assert chunked.decrypt(KEY128, (tmp_path / "ct").read_bytes()) == src.read_bytes()


def test_a_trailing_slash_is_a_directory_as_builtin_open_says(tmp_path):
    src = write(tmp_path / "pt", b"plaintext")
    x = write(tmp_path / "x", b"old")
    for name in ["x/", "new/", "x/."]:
        dst = str(tmp_path) + "/" + name
        with pytest.raises(IsADirectoryError) as e:
            chunked.encrypt_file(KEY128, src, dst)
        assert e.value.errno == errno.EISDIR and e.value.filename == dst
        with pytest.raises(IsADirectoryError):
            chunked.decrypt_file(KEY128, src, dst)
        with pytest.raises(IsADirectoryError):
            chunked.open(dst, "wb", KEY128)
        with pytest.raises(IsADirectoryError):  # what builtin open does
            open(str(tmp_path) + "/" + name.rstrip("."), "wb")
    assert x.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["pt", "x"]


def test_a_truncated_file_is_called_truncated(tmp_path):
    pt = os.urandom(5 * 16384 + 123)
    ct = chunked.encrypt(KEY128, pt)
    for cut, chunk in [(5000, 0), (56 + 3 * 16400 + 999, 3)]:
        p = write(tmp_path / "cut", ct[:cut])
        with pytest.raises(gcmkit.InvalidTag, match=rf"^truncated.* ends in chunk {chunk}\b"):
            chunked.decrypt_file(KEY128, p, tmp_path / "out")
        with pytest.raises(gcmkit.InvalidTag, match="^truncated"):
            chunked.decrypt(KEY128, ct[:cut])
        assert not (tmp_path / "out").exists()


def test_context_as_text_is_its_utf8_bytes_as_the_clis_context(tmp_path):
    # It was "string argument without an encoding" or a TypeError; the CLI's --context
    # takes text, and these must read each other's files.
    ct = chunked.encrypt(KEY128, b"data", context="sales é")
    assert chunked.decrypt(KEY128, ct, context="sales é".encode()) == b"data"
    assert chunked.decrypt(KEY128, ct, context=bytearray("sales é".encode())) == b"data"
    with pytest.raises(gcmkit.InvalidTag):
        chunked.decrypt(KEY128, ct, context="sales")
    src = write(tmp_path / "pt", b"x" * 40000)
    chunked.encrypt_file(KEY128, src, tmp_path / "ct", context="sales")
    assert chunked.decrypt_file(KEY128, tmp_path / "ct", tmp_path / "back", context=b"sales") == 40000
    with chunked.open(tmp_path / "ct2", "wb", KEY128, context="sales") as w:
        w.write(b"y" * 100)
    with chunked.open(tmp_path / "ct2", "rb", KEY128, context="sales") as r:
        assert r.read() == b"y" * 100
    sealed = (tmp_path / "ct").read_bytes()
    with open(tmp_path / "ct", "rb") as f:
        assert chunked.decrypt_range(KEY128, "sales", f, 10, 5) == b"xxxxx"
    assert chunked.decrypt(KEY128, sealed, context=b"sales") == b"x" * 40000
    with pytest.raises(UnicodeEncodeError):
        chunked.encrypt(KEY128, b"", context="\ud800")
    with pytest.raises(TypeError):
        chunked.encrypt(KEY128, b"", context=5)


def test_the_pyca_drop_in_keeps_pycas_context_rules():
    # gcmkit.cobblestone is pyca's exactly: its arguments are not widened.
    from cryptography import cobblestone as pyca_cobblestone

    for mod in (gcmkit.cobblestone, pyca_cobblestone):
        with pytest.raises(TypeError):
            mod.Cobblestone128Encryptor(KEY128, "sales")
