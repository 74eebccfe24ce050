"""The project's own tools keep working: plain `pytest` (not only `python -m pytest`) collects the
solver tests, where tests/solvers used to shadow the `solvers` package (issue 23)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_plain_pytest_imports_the_solvers_package_not_the_tests_folder():
    pytest_script = Path(sys.executable).with_name("pytest")
    cmd = [str(pytest_script)] if pytest_script.exists() else [sys.executable, "-c", "import pytest; pytest.main()"]
    # started from outside the checkout, so that the working folder puts nothing on sys.path
    done = subprocess.run([*cmd, "--collect-only", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "solvers")],
                          cwd=ROOT.parent, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "ImportError" not in done.stdout and " collected" in done.stdout
