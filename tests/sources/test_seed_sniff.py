"""Only paper lists are papers: the seed reader takes text that looks like the seed format (a venue
header, paragraphs of abstracts) and nothing else. System files, source code, Markdown, tables of
numbers and logs are refused in one line naming the file and the ``--format`` values, and the store
is left as it was; the bundled seeds and every seed-like file the tests write still import."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources import FORMAT_NAMES, detect_format, read_source
from paperdeck.sources.seed_text import looks_like_seed_text

from tests.helpers import FIXTURES, SEEDS, SHARED_DATA, run

#: Text files that are no paper list, each of a kind a user may pass by mistake.
NOT_PAPER_LISTS: dict[str, str] = {
    "passwd": "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
    "bin:x:2:2:bin:/bin:/usr/sbin/nologin\nsys:x:3:3:sys:/dev:/usr/sbin/nologin\n"
    "www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n",
    "hosts": "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n\n# The following lines\n"
    "fe00::0\tip6-localnet\nff02::1\tip6-allnodes\n",
    "fstab": "# /etc/fstab: static file system information.\n#\n"
    "UUID=1234-abcd /boot/efi vfat umask=0077 0 1\n/dev/sda1 / ext4 errors=remount-ro 0 1\n",
    "os-release": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
    'ID=debian\nHOME_URL="https://www.debian.org/"\n',
    "bashrc": "# System-wide .bashrc file for interactive bash(1) shells.\n\n"
    '# If not running interactively, don\'t do anything\n[ -z "$PS1" ] && return\n\n'
    'shopt -s checkwinsize\n\nif [ -z "${debian_chroot:-}" ] && [ -r /etc/debian_chroot ]; then\n'
    "    debian_chroot=$(cat /etc/debian_chroot)\nfi\n",
    "python": '"""A module that reads lists."""\n\nimport os\nimport sys\n\n\n'
    "def main(argv: list[str]) -> int:\n    for name in argv:\n        print(name, os.path.getsize(name))\n"
    '    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main(sys.argv[1:]))\n',
    "c": '#include <stdio.h>\n\nint main(int argc, char **argv) {\n    printf("%d\\n", argc);\n    return 0;\n}\n',
    "markdown": "# Real paper-list data\n\nEverything here is real public data, taken from public repositories "
    "and kept as it was.\n\n## Quick index\n\n| file | format | records |\n|---|---|---|\n| a.json | JSON | 12 |\n\n"
    "- one item\n- another item\n\n> A note on privacy: addresses were replaced by placeholders.\n",
    "cpuinfo": "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel name\t: Intel(R) Xeon(R) CPU\n"
    "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36\n\n"
    "processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel name\t: Intel(R) Xeon(R) CPU\n",
    "bsd-licence": "Copyright (c) The Regents of the University of California.\nAll rights reserved.\n\n"
    "Redistribution and use in source and binary forms, with or without modification, are permitted "
    "provided that the following conditions are met:\n1. Redistributions of source code must retain the "
    "above copyright notice, this list of conditions and the following disclaimer.\n\n"
    "THIS SOFTWARE IS PROVIDED BY THE REGENTS AND CONTRIBUTORS ``AS IS'' AND ANY EXPRESS OR IMPLIED "
    "WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY.\n",
    "debian-copyright": "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
    "Upstream-Name: less\nSource: https://www.greenwoodsoftware.com/less\n\nFiles: *\n"
    "Copyright: (C) 1984-2021 Mark Nudelman\nLicense: GPL-3+ or Less\n\nLicense: GPL-3+\n"
    " You should have received a copy of the GNU General Public License along with this program.\n",
    "verse": "The Zen of Python, by Tim Peters\n\nBeautiful is better than ugly.\nExplicit is better than "
    "implicit.\nSimple is better than complex.\nComplex is better than complicated.\nFlat is better than "
    "nested.\nSparse is better than dense.\nReadability counts.\n",
    "csv-numbers": "1,2,3,4\n5,6,7,8\n9,10,11,12\n13,14,15,16\n",
    "numbers": "0.125 0.25 0.5\n1.5 2.5 3.5\n4 5 6\n7 8 9\n",
    "syslog": "Dec  5 13:56:09 host systemd[1]: Started Daily apt download activities.\n"
    "Dec  5 13:56:10 host CRON[4242]: (root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)\n"
    "Dec  5 13:57:01 host kernel: [12345.678] eth0: link up, 1000 Mbps, full duplex\n",
    "python-log": "INFO 2026-12-05 13:56:09,123 paperdeck.store opened the store at /tmp/x\n"
    "WARNING 2026-12-05 13:56:10,456 paperdeck.search the saved index is stale; rebuilding it\n"
    "ERROR 2026-12-05 13:56:11,789 paperdeck.fetch request failed with status 503 after 3 tries\n",
    "access-log": '203.0.113.9 - - [05/Dec/2026:13:56:09 +0000] "GET /index.html HTTP/1.1" 200 512 "-" "curl/8"\n'
    '203.0.113.9 - - [05/Dec/2026:13:56:10 +0000] "GET /favicon.ico HTTP/1.1" 404 196 "-" "curl/8"\n',
    "dpkg-log": "2026-12-05 13:56:09 startup archives unpack\n2026-12-05 13:56:09 install libfoo:amd64 <none> 1.2-3\n"
    "2026-12-05 13:56:10 status half-installed libfoo:amd64 1.2-3\n",
}
#: Names to write them under: with no ending, as ``.txt`` (seed text's own), and as their own kind's.
ENDINGS = ("", ".txt", ".log")


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("kind", sorted(NOT_PAPER_LISTS))
def test_a_text_file_that_is_no_paper_list_is_refused_in_one_line(tmp_path: Path, kind: str, ending: str) -> None:
    path = tmp_path / f"{kind}{ending}"
    path.write_text(NOT_PAPER_LISTS[kind], "utf-8")
    assert not looks_like_seed_text(NOT_PAPER_LISTS[kind])
    with pytest.raises(SourceError) as caught:
        detect_format(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    assert "not a paper list" in message and f"--format ({', '.join(FORMAT_NAMES)})" in message


def test_importing_one_changes_nothing_and_says_why(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "data"
    seed = sorted(SEEDS.glob("*.txt"))[0]
    assert run(capsys, "import", str(seed), "--data-dir", str(data))[0] == 0
    before = {path.name: path.read_bytes() for path in sorted(data.rglob("*")) if path.is_file()}
    for kind, text in NOT_PAPER_LISTS.items():
        path = tmp_path / kind
        path.write_text(text, "utf-8")
        code, out, err = run(capsys, "import", str(path), "--data-dir", str(data))
        assert (code, out) == (2, ""), kind
        assert err.count("\n") == 1 and f"{path}: not a paper list" in err and "--format" in err, err
        # Named with the seed files, it is refused too: the import is all or nothing.
        assert run(capsys, "import", str(seed), str(path), "--data-dir", str(data))[0] == 2
    after = {path.name: path.read_bytes() for path in sorted(data.rglob("*")) if path.is_file()}
    assert after == before


def test_a_refused_import_into_a_new_data_directory_leaves_no_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    passwd = tmp_path / "passwd"
    passwd.write_text(NOT_PAPER_LISTS["passwd"], "utf-8")
    data = tmp_path / "new" / "data"
    data.parent.mkdir()
    assert run(capsys, "import", str(passwd), "--data-dir", str(data))[0] == 2
    assert run(capsys, "--data-dir", str(data), str(passwd))[0] == 2  # the app's own import: the same
    assert list(data.parent.iterdir()) == []


def test_a_forced_seed_format_reads_a_refused_file_anyway(tmp_path: Path) -> None:
    """The way out the refusal names: ``--format seed`` takes the file as seed text, whatever it holds."""
    path = tmp_path / "notes.md"
    path.write_text(NOT_PAPER_LISTS["markdown"], "utf-8")
    assert read_source(path, "seed").papers


def test_the_test_data_readmes_are_refused(tmp_path: Path) -> None:
    for readme in (FIXTURES / "README.md", FIXTURES / "render-abstract.md"):
        with pytest.raises(SourceError, match="not a paper list"):
            detect_format(readme)


@pytest.mark.data
def test_the_shared_data_readme_is_refused() -> None:
    readme = SHARED_DATA / "README.md"
    assert readme.is_file(), f"no {readme}"
    with pytest.raises(SourceError, match="not a paper list"):
        detect_format(readme)


def test_the_bundled_seeds_are_detected_and_read_as_before() -> None:
    seeds = sorted(SEEDS.glob("*.txt"))
    assert seeds
    for seed in seeds:
        assert detect_format(seed) == "seed"
        assert read_source(seed).papers == read_source(seed, "seed").papers


SEED_LIKE: dict[str, str] = {
    "header-one-sentence": "ICLR 2026 论文列表\n\nWe propose FooNet, a network for foo tasks.\n",
    "header-rewrapped": "ICLR 2026\n\nWe propose FooNet,\na network for   foo tasks.\n",
    "no-header": "A long enough abstract about graph neural networks and their training.\n",
    "two-abstracts": "NeurIPS 2025\n\nWe study the training of graph networks on molecules and show gains.\n\n"
    "A second abstract, about kernels for vision, that reads as prose does.\n",
    "crlf": "ICLR 2026\r\n\r\nWe propose Pool1Net, a method for crash-safe stores, number 1.\r\n",
    "chinese": "ICLR 2026 论文列表\n\n我们提出了一种新的图神经网络训练方法，"
    "并在三个分子数据集上验证了它的效果，结果显著优于基线。\n",
    "latex": "ICLR 2026\n\nWe bound the error of $\\hat{f}$ by $O(n^{-1/2})$ for every $f \\in \\mathcal{F}$, and show "
    "that the rate is tight for the class of Lipschitz functions on the unit cube.\n",
    "empty": "",
}


@pytest.mark.parametrize("kind", sorted(SEED_LIKE))
def test_seed_like_text_is_detected_as_seed(tmp_path: Path, kind: str) -> None:
    for name in (f"{kind}.txt", kind):
        path = tmp_path / name
        path.write_text(SEED_LIKE[kind], "utf-8")
        assert detect_format(path) == "seed", name


def test_seed_text_in_utf16_or_gb18030_is_detected(tmp_path: Path) -> None:
    text = SEED_LIKE["chinese"] + "\nWe propose FooNet, a network for foo tasks, and test it.\n"
    for encoding in ("utf-16", "gb18030"):
        path = tmp_path / f"list-{encoding}.txt"
        path.write_bytes(text.encode(encoding))
        assert detect_format(path) == "seed", encoding
        assert len(read_source(path).papers) == 2


def test_a_binary_txt_is_still_refused_as_not_text(tmp_path: Path) -> None:
    path = tmp_path / "image.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 20)
    with pytest.raises(SourceError, match="not a text file"):
        read_source(path)
