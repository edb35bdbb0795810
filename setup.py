"""`pip install .` (docs/python.md, "Installing with pip"): builds the _ergon extension and the ergon command
with the project's own CMake build, and packages them with the Python layer and the shipped data:

    ergon/__init__.py, _ergon*.so, _paths.py   the package (python/ergon)
    ergon/bin/ergon                            the command line, run by the `ergon` script pip installs
    ergon/share/ergon/{configs,power/tables,workloads,reference}   the shipped data

Offline, with Debian's setuptools and wheel: `pip install --no-build-isolation .`. The CMake build goes to
$ERGON_CMAKE_BUILD_DIR when set (an existing build of this tree is reused as it is configured), else to
build-pip/cmake, kept between installs so that only what changed is rebuilt.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

SOURCE = pathlib.Path(__file__).resolve().parent
BUILD_BASE = "build-pip"  # not build/: the README's CMake build lives there
DATA_FOLDERS = ["configs", "power/tables", "workloads", "reference"]


def project_version():
    """The version of the top-level CMakeLists.txt's project(): the one source of truth."""
    text = (SOURCE / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*ergon\s+VERSION\s+([0-9]+(?:\.[0-9]+)*)", text)
    if match is None:
        raise RuntimeError(f"{SOURCE / 'CMakeLists.txt'}: no `project(ergon VERSION x.y.z ...)`")
    return match.group(1)


def run(command):
    print("setup.py: " + " ".join(map(str, command)), flush=True)
    subprocess.run([str(word) for word in command], check=True)


def cached_source_dir(build_dir):
    """The source tree a configured CMake build directory belongs to, or None."""
    cache = build_dir / "CMakeCache.txt"
    if not cache.is_file():
        return None
    for line in cache.read_text().splitlines():
        if line.startswith("CMAKE_HOME_DIRECTORY:"):
            return pathlib.Path(line.split("=", 1)[1]).resolve()
    return None


class CMakeBuild(build_ext):
    """Builds the _ergon and ergon targets with CMake and copies them into the package."""

    def build_extension(self, ext):
        build_dir = self.cmake_build_dir()
        self.configure(build_dir)
        command = ["cmake", "--build", build_dir, "--target", "_ergon", "ergon"]
        if "CMAKE_BUILD_PARALLEL_LEVEL" not in os.environ:
            command += ["--parallel", str(os.cpu_count() or 1)]
        run(command)
        extension = build_dir / "python" / "ergon" / ("_ergon" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not extension.is_file():
            raise RuntimeError(f"{extension} was not built: {build_dir} builds the extension for another Python "
                               f"than {sys.executable}; unset ERGON_CMAKE_BUILD_DIR or configure it with "
                               f"-DPython3_EXECUTABLE={sys.executable}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(extension, target)
        command_line = target.parent / "bin" / "ergon"
        command_line.parent.mkdir(exist_ok=True)
        shutil.copy2(build_dir / "cli" / "ergon", command_line)

    def cmake_build_dir(self):
        given = os.environ.get("ERGON_CMAKE_BUILD_DIR")
        return pathlib.Path(given).resolve() if given else SOURCE / BUILD_BASE / "cmake"

    def configure(self, build_dir):
        """Configures a new build directory; one already configured for this tree is built as it is."""
        source = cached_source_dir(build_dir)
        if source == SOURCE:
            return
        if source is not None:
            raise RuntimeError(f"ERGON_CMAKE_BUILD_DIR={build_dir} is a build of {source}, not of {SOURCE}")
        run(["cmake", "-S", SOURCE, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DERGON_BUILD_TESTS=OFF",
             f"-DPython3_EXECUTABLE={sys.executable}"])


class BuildPackage(build_py):
    """The Python layer as build_py copies it, plus _paths.py and the shipped data inside the package."""

    def run(self):
        super().run()
        package = pathlib.Path(self.build_lib) / "ergon"
        template = (SOURCE / "python" / "ergon" / "_paths.py.in").read_text()
        paths = template.replace("@PROJECT_VERSION@", project_version()).replace("@ERGON_PYTHON_DATA_DIR@",
                                                                                 "share/ergon")
        (package / "_paths.py").write_text(paths)
        data = package / "share" / "ergon"
        for folder in DATA_FOLDERS:
            shutil.rmtree(data / folder, ignore_errors=True)  # a file removed from the tree goes here too
            shutil.copytree(SOURCE / folder, data / folder, ignore=shutil.ignore_patterns("__pycache__"))


os.makedirs(SOURCE / BUILD_BASE, exist_ok=True)
setup(
    version=project_version(),
    packages=["ergon"],
    package_dir={"": "python"},
    package_data={"ergon": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension("ergon._ergon", sources=[])],
    cmdclass={"build_ext": CMakeBuild, "build_py": BuildPackage},
    options={"build": {"build_base": str(SOURCE / BUILD_BASE)}, "egg_info": {"egg_base": str(SOURCE / BUILD_BASE)}},
    zip_safe=False,
)
