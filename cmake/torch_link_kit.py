#!/usr/bin/env python3
"""Unpacks what building against PyTorch needs from PyPI's torch wheel.

usage: torch_link_kit.py REQUIREMENTS DEST

Writes DEST/torch/{include,share/cmake,lib}: the headers and the CMake package
as the wheel has them, and, for each shared library, a link stub: a library
with the same SONAME that defines the same dynamic symbols (name, type,
binding, size) and holds no code. Linking against the stubs records the same
DT_NEEDED entries and resolves the same symbols as linking against the real
libraries; at run time the real ones, loaded by `import torch`, serve. The
stubs take 25 MB where the libraries take 1 GB (libtorch_cpu.so and
libtorch_cuda.so are 450 MB each). Symbol versions are not copied: of the
wheel's libraries only libgomp.so.1 has them, and nothing links it.

The wheel is read in place with HTTP range requests, so nothing of it is
stored; each member's CRC-32 is checked as it is read, and a request that
fails is made again, three times at most. Where the server does not answer a
range request, the whole wheel is downloaded, checked against the index's
SHA-256, read and deleted.
"""

import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import urllib.request
import zipfile

COPIED_PREFIXES = ("torch/include/", "torch/share/cmake/", "torch/lib/")
READ_AHEAD_BYTES = 8 << 20
TIMEOUT_S = 60
ATTEMPTS = 3


def resolve_wheel(requirements):
    """The wheel pip would install for REQUIREMENTS here: (url, sha256)."""
    report = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps",
         "--only-binary=:all:", "--disable-pip-version-check", "-q", "--report", "-", "-r", requirements],
        check=True, capture_output=True, text=True).stdout
    install = json.loads(report)["install"]
    if len(install) != 1:
        sys.exit(f"torch_link_kit: {requirements} resolves to {len(install)} wheels; it must name exactly one")
    info = install[0]["download_info"]
    return info["url"], info.get("archive_info", {}).get("hashes", {}).get("sha256")


class RangeReader(io.RawIOBase):
    """A seekable read-only file over HTTP range requests."""

    def __init__(self, url, size):
        self.url, self.size, self.position = url, size, 0

    @staticmethod
    def open(url):
        """A RangeReader for URL, or None where the server ignores ranges."""
        request = urllib.request.Request(url, headers={"Range": "bytes=0-0"})
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            content_range = response.headers.get("Content-Range", "")
            if response.status != 206 or "/" not in content_range:
                return None
            return RangeReader(url, int(content_range.rsplit("/", 1)[1]))

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.position

    def seek(self, offset, whence=io.SEEK_SET):
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = base + offset
        return self.position

    def readinto(self, buffer):
        end = min(self.size, self.position + len(buffer))
        if end <= self.position:
            return 0
        request = urllib.request.Request(self.url, headers={"Range": f"bytes={self.position}-{end - 1}"})
        for attempt in range(1, ATTEMPTS + 1):
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                    data = response.read()
                if response.status == 206 and len(data) == end - self.position:
                    break
                error = f"got {len(data)} bytes (HTTP {response.status})"
            except OSError as failure:
                error = str(failure)
            if attempt == ATTEMPTS:
                raise OSError(f"{self.url}: bytes {self.position}-{end - 1}: {error}, {ATTEMPTS} attempts")
        buffer[:len(data)] = data
        self.position = end
        return len(data)


def download(url, sha256, path):
    digest = hashlib.sha256()
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response, open(path, "wb") as out:
        while chunk := response.read(1 << 20):
            digest.update(chunk)
            out.write(chunk)
    if sha256 and digest.hexdigest() != sha256:
        sys.exit(f"torch_link_kit: {url}: SHA-256 {digest.hexdigest()}, the index says {sha256}")


# ELF64 little-endian, as x86-64 and aarch64 wheels are.
SHT_DYNSYM, SHT_DYNAMIC, DT_SONAME = 11, 6, 14
SHF_EXECINSTR, SHF_TLS = 0x4, 0x400
STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE = 1, 2, 10
SYMBOL_TYPES = {1: "@object", 2: "@function", 6: "@tls_object", 10: "@gnu_indirect_function"}


def exported_symbols(elf):
    """(soname, [(name, binding, type, size, section flags)]) of the symbols ELF defines."""
    if elf[:5] != b"\x7fELF\x02" or elf[5] != 1:
        raise ValueError("not a little-endian 64-bit ELF file")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]

    def string(table, offset):
        start = sections[table][4] + offset
        return elf[start:elf.index(b"\0", start)].decode()

    soname, symbols = None, []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind == SHT_DYNAMIC:
            for at in range(offset, offset + size, entsize):
                tag, value = struct.unpack_from("<qQ", elf, at)
                if tag == DT_SONAME:
                    soname = string(link, value)
        elif kind == SHT_DYNSYM:
            for at in range(offset + entsize, offset + size, entsize):  # entry 0 is the null symbol
                name, info, _, shndx, _, symbol_size = struct.unpack_from("<IBBHQQ", elf, at)
                binding, symbol_type = info >> 4, info & 0xF
                if 0 < shndx < len(sections) and binding in (STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE):
                    flags = sections[shndx][2]
                    symbols.append((string(link, name), binding, symbol_type, symbol_size, flags))
    return soname, symbols


def stub_assembly(symbols):
    """GNU assembly defining SYMBOLS where their kind of section is: code in
    .text, TLS in .tbss, the rest in .bss."""
    text, data, tls = [".text"], [".bss"], ['.section .tbss,"awT",@nobits']
    for name, binding, symbol_type, size, flags in symbols:
        quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
        scope = ".weak" if binding == STB_WEAK else ".globl"
        kind = "@gnu_unique_object" if binding == STB_GNU_UNIQUE else SYMBOL_TYPES.get(symbol_type)
        lines = [f"{scope} {quoted}"] + ([f".type {quoted}, {kind}"] if kind else [])
        lines += [f".size {quoted}, {size}", f"{quoted}:"]
        if flags & SHF_EXECINSTR:
            text += lines
        else:
            (tls if flags & SHF_TLS else data).extend(lines + [f".zero {max(size, 1)}"])
    return "\n".join(text + ["ret"] + data + tls) + "\n"


def write_link_stub(elf, path, work):
    soname, symbols = exported_symbols(elf)
    source = os.path.join(work, "stub.s")
    with open(source, "w") as out:
        out.write(stub_assembly(symbols))
    soname_flag = [f"-Wl,-soname,{soname}"] if soname else []
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-nostdlib", *soname_flag, "-o", path, source],
                   check=True)


def unpack(wheel, dest, work):
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            name = member.filename
            if not name.startswith(COPIED_PREFIXES) or member.is_dir():
                continue
            path = os.path.join(dest, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if name.startswith("torch/lib/") and ".so" in os.path.basename(name):
                write_link_stub(archive.read(member), path, work)
            else:
                with archive.open(member) as source, open(path, "wb") as out:
                    shutil.copyfileobj(source, out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    requirements, dest = sys.argv[1:]
    url, sha256 = resolve_wheel(requirements)
    os.makedirs(dest, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest) as work:
        remote = RangeReader.open(url)
        if remote:
            unpack(io.BufferedReader(remote, buffer_size=READ_AHEAD_BYTES), dest, work)
        else:
            wheel = os.path.join(work, os.path.basename(url))
            download(url, sha256, wheel)
            unpack(wheel, dest, work)


if __name__ == "__main__":
    main()
