#!/usr/bin/env python3
"""cmake/torch_link_kit.py's link stubs stand in for the libraries they copy.

Builds a small shared library with each kind of symbol PyTorch's libraries
export (functions, data, read-only data, thread-locals, weak and
unique-object symbols, a C++ name), writes its link stub, and checks that:
- the stub has the library's SONAME and defines the same dynamic symbols,
  of the same kinds and sizes, and none of its code (it is far smaller);
- a program linked against the stub alone runs against the real library and
  gets the real values.

usage: link_stub_test.py  (needs cc, c++ and nm on PATH)
"""

import importlib.util
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

KIT = pathlib.Path(__file__).resolve().parents[2] / "cmake" / "torch_link_kit.py"
spec = importlib.util.spec_from_file_location("torch_link_kit", KIT)
torch_link_kit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(torch_link_kit)

LIBRARY = r"""
#include <cstdint>
namespace demo {
struct Table { int values[4096]; };
Table table = {{7, 11}};                       // data, 16 KiB
extern const char name[] = "link-stub";        // read-only data
__thread int calls = 0;                        // thread-local
int add(int a, int b) { ++calls; return a + b + table.values[1]; }
template <typename T> T twice(T v) { static T last; last = v; return v + v; }
template int twice<int>(int);                  // a unique object (twice<int>::last)
}
extern "C" __attribute__((weak)) int weak_answer() { return 42; }
extern "C" int count_calls() { return demo::calls; }
"""

PROGRAM = r"""
#include <cstdio>
#include <cstring>
namespace demo {
struct Table { int values[4096]; };
extern Table table;
extern const char name[];
extern __thread int calls;
int add(int, int);
template <typename T> T twice(T);
}
extern "C" int weak_answer();
extern "C" int count_calls();
int main() {
  int sum = demo::add(1, 2) + demo::twice(5) + weak_answer() + count_calls() + demo::calls +
            demo::table.values[0];
  std::printf("%d %s\n", sum, demo::name);
  return 0;
}
"""


def defined_symbols(library):
    """{(name, type, binding, size)} of the dynamic symbols LIBRARY defines."""
    listing = subprocess.run(["readelf", "-W", "--dyn-syms", library],
                             check=True, capture_output=True, text=True).stdout
    symbols = set()
    for line in listing.splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(fields) == 8 and fields[0][:-1].isdigit() and fields[6] != "UND":
            symbols.add((fields[7], fields[3], fields[4], int(fields[2], 0)))
    return symbols


class LinkStubTest(unittest.TestCase):

    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.work.name)
        (self.dir / "real").mkdir()
        (self.dir / "stub").mkdir()
        source = self.dir / "library.cpp"
        source.write_text(LIBRARY)
        self.real = self.dir / "real" / "libdemo.so.3"  # the file the loader looks for
        subprocess.run(["c++", "-O2", "-fPIC", "-shared", "-Wl,-soname,libdemo.so.3", "-o", self.real, source],
                       check=True)
        self.stub = self.dir / "stub" / "libdemo.so"
        torch_link_kit.write_link_stub(self.real.read_bytes(), str(self.stub), self.work.name)

    def tearDown(self):
        self.work.cleanup()

    def test_stub_defines_what_the_library_defines(self):
        soname, _ = torch_link_kit.exported_symbols(self.stub.read_bytes())
        self.assertEqual(soname, "libdemo.so.3")
        real = defined_symbols(self.real)
        self.assertEqual(defined_symbols(self.stub), real)
        names = {symbol[0] for symbol in real}
        for expected in ("_ZN4demo3addEii", "_ZN4demo5tableE", "_ZN4demo4nameE", "_ZN4demo5callsE",
                         "weak_answer", "_ZZN4demo5twiceIiEET_S1_E4last"):
            self.assertIn(expected, names)

    def test_program_linked_against_the_stub_runs_against_the_library(self):
        source = self.dir / "program.cpp"
        source.write_text(PROGRAM)
        program = self.dir / "program"
        subprocess.run(["c++", "-O2", "-o", program, source, self.stub], check=True)
        needed = subprocess.run(["readelf", "-d", program], check=True, capture_output=True, text=True).stdout
        self.assertIn("[libdemo.so.3]", needed)
        environment = dict(os.environ, LD_LIBRARY_PATH=str(self.real.parent))
        output = subprocess.run([program], check=True, capture_output=True, text=True, env=environment).stdout
        # add: 1 + 2 + table[1] (11); twice: 10; weak_answer: 42; one call, twice; table[0]: 7.
        self.assertEqual(output, "75 link-stub\n")

    def test_rejects_what_is_not_a_64_bit_elf_file(self):
        with self.assertRaisesRegex(ValueError, "not a little-endian 64-bit ELF file"):
            torch_link_kit.exported_symbols(b"#!/bin/sh\n")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
