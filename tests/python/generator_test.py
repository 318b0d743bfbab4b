"""Python generators built with the `arena` feature through halide_arena's
generator main: the library, header and plan report of each must be
byte-identical to what the C++ generator main writes for the same pipeline
written in C++ (generators/corpus), for the host and for CUDA (building a
CUDA library needs no GPU). And the same pipelines planned by JIT: the
report halide_arena.plan writes for the Python pipeline must be
byte-identical to the one harena::plan_into_argument writes for the C++ one.

Usage: generator_test.py CORPUS_GENERATOR_DIR CPP_JIT_REPORT
  (the build's generators/corpus, and its tests/python/harena_cpp_jit_report)
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# The corpus's target before its features (generators/corpus/CMakeLists.txt).
CORPUS_TARGET = "x86-64-linux-sse41-avx-f16c-fma-avx2"
EMITS = "static_library,c_header"
CORPUS_DIR = None
CPP_JIT_REPORT = None


def generate(command, cwd, generator, target, extra=()):
    """Runs a generator main in `cwd`, writing into cwd/out; returns {file: bytes}."""
    out = os.path.join(cwd, "out")
    os.makedirs(out)
    done = subprocess.run(command + ["-g", generator, "-o", "out", "-e", EMITS, f"target={target}", *extra],
                          cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return read_folder(out)


def read_folder(folder):
    """{file: bytes} of every file in folder."""
    files = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            files[name] = f.read()
    return files


class PythonGeneratorsPlanAsCpp(unittest.TestCase):

    def compare(self, generator, features, entry):
        target = f"{CORPUS_TARGET}-{features}"
        source = os.path.join(HERE, "generators", f"{generator}.py")
        python = {
            "module": [sys.executable, "-m", "halide_arena.generate", source],
            "script": [sys.executable, source],
        }[entry]
        with tempfile.TemporaryDirectory() as cpp_dir, tempfile.TemporaryDirectory() as py_dir:
            cpp = generate([os.path.join(CORPUS_DIR, f"corpus_{generator}.generator")], cpp_dir, generator, target)
            py = generate(python, py_dir, generator, target)
        self.assertIn(f"{generator}.arena.json", cpp)
        self.assertIn(f"{generator}.a", cpp)
        self.assertEqual(sorted(py), sorted(cpp))
        for name in cpp:
            self.assertTrue(py[name] == cpp[name], f"{name} differs between the C++ and the Python generator")

    def test_color_grade_host(self):
        self.compare("color_grade", "arena", "module")

    def test_color_grade_cuda(self):
        self.compare("color_grade", "cuda-arena", "script")

    def test_stencil_chain_host(self):
        self.compare("stencil_chain", "arena", "script")

    def test_stencil_chain_cuda(self):
        self.compare("stencil_chain", "cuda-arena", "module")

    def compare_jit(self, generator, features):
        target = f"{CORPUS_TARGET}-{features}" if features else CORPUS_TARGET
        source = os.path.join(HERE, "generators", f"{generator}.py")
        reports = {}
        for side, command in (("cpp", [CPP_JIT_REPORT, generator, target]),
                              ("py", [sys.executable, os.path.join(HERE, "python_jit_report.py"), source, generator,
                                      target])):
            with tempfile.TemporaryDirectory() as d:
                done = subprocess.run(command + [d], capture_output=True, text=True)
                self.assertEqual(done.returncode, 0, f"{side}: {done.stdout}{done.stderr}")
                reports[side] = read_folder(d)
        self.assertIn(f"{generator}.arena.json", reports["cpp"])
        self.assertEqual(sorted(reports["py"]), sorted(reports["cpp"]))
        for name in reports["cpp"]:
            self.assertTrue(reports["py"][name] == reports["cpp"][name], f"JIT {name} differs")

    def test_color_grade_jit_host(self):
        self.compare_jit("color_grade", "")

    def test_stencil_chain_jit_cuda(self):
        self.compare_jit("stencil_chain", "cuda")

    def test_halide_main_alone_rejects_the_arena_feature(self):
        # Why the entry exists: Halide's own main parses targets itself.
        source = os.path.join(HERE, "generators", "sharpen.py")
        script = ("import runpy, sys; runpy.run_path(sys.argv[1]); import halide; "
                  "sys.argv = ['gen', '-g', 'arena_sharpen', '-o', '.', 'target=host-arena']; halide.main()")
        with tempfile.TemporaryDirectory() as d:
            done = subprocess.run([sys.executable, "-c", script, source], cwd=d, capture_output=True, text=True)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("arena", done.stderr + done.stdout)

    def test_a_bad_option_is_named_and_nothing_is_built(self):
        source = os.path.join(HERE, "generators", "sharpen.py")
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "out"))
            done = subprocess.run([sys.executable, source, "-g", "arena_sharpen", "-o", "out", "-e", EMITS,
                                   "target=host-arena", "harena.argumnet=arena"], cwd=d, capture_output=True,
                                  text=True)
            self.assertEqual(done.returncode, 1)
            self.assertIn("harena: generator option 'harena.argumnet=arena': unknown option", done.stderr)
            self.assertEqual(os.listdir(os.path.join(d, "out")), [])

    def test_the_arena_argument_gets_the_plan_bytes_as_its_estimate(self):
        source = os.path.join(HERE, "generators", "sharpen.py")
        with tempfile.TemporaryDirectory() as d:
            files = generate([sys.executable, source], d, "arena_sharpen", "host-arena", ["harena.argument=arena"])
        report = files["arena_sharpen.arena.json"].decode()
        self.assertIn('"arena_bytes_at_estimates"', report)
        self.assertIn(b"arena_sharpen", files["arena_sharpen.h"])


if __name__ == "__main__":
    CORPUS_DIR = sys.argv.pop(1)
    CPP_JIT_REPORT = sys.argv.pop(1)
    unittest.main()
