"""In the repository only: the project README's Python block is a piece of test_app.py, word for word."""

import os
import re

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, "..", "..", "README.md")


def without_blank_lines(text):
    return "\n".join(line for line in text.splitlines() if line.strip())


@pytest.mark.skipif(not os.path.exists(README), reason="this example was copied out of the repository")
def test_the_readme_python_block_is_this_examples_test():
    readme = open(README, encoding="utf-8").read()
    block = re.search(r"```python\n(.*?)```", readme[readme.index("## In your CI"):], re.S).group(1)
    test_file = open(os.path.join(HERE, "test_app.py"), encoding="utf-8").read()
    assert "def test_" in block and without_blank_lines(block) in without_blank_lines(test_file), block
