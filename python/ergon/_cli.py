"""The `ergon` command of a pip install: runs the ergon executable shipped inside this package (bin/ergon,
beside share/ergon, where it finds its data as an installed tree lays it out)."""
import os
import sys


def main():
    executable = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "ergon")
    if not os.access(executable, os.X_OK):
        sys.stderr.write(f"ergon: {executable} is missing: this copy of the package has no command line "
                         "(a build tree's is build/cli/ergon)\n")
        return 1
    os.execv(executable, [executable, *sys.argv[1:]])
    return 1  # not reached: execv replaces this process


if __name__ == "__main__":
    sys.exit(main())
