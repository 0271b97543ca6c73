"""The command line's output files (referee/paths.py): asked before any work whether one can be
written, then written whole or not at all.  Found by a fresh user's try of export -o, backup and
detect --annotate."""

import errno
import os
import threading
from pathlib import Path

import pytest

from referee import paths
from referee.paths import cannot_write, same_file, write_whole


# Bug: the check opened a dangling link's target to probe it, then removed the link itself.
def test_a_dangling_link_is_checked_at_its_target_and_kept(tmp_path):
    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "target.json")
    assert cannot_write(link) is None
    assert link.is_symlink()
    assert not (tmp_path / "target.json").exists()


# Bug: opening a named pipe for appending waits for a reader: the command hung, saying nothing.
def test_a_named_pipe_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "out.jpg"
    os.mkfifo(fifo)
    answer = []
    t = threading.Thread(target=lambda: answer.append(cannot_write(fifo)), daemon=True)
    t.start()
    t.join(5)
    if t.is_alive():  # release the stuck open before failing
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
    assert answer == ["it is not a plain file (a pipe or a device)"]


# Bug: Python 3.11's Path.is_dir() raises for a folder the user cannot enter: a traceback.
def test_a_folder_that_cannot_be_entered_is_a_reason_not_an_error(tmp_path, monkeypatch):
    def denied(self):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_dir", denied)
    assert cannot_write(tmp_path / "locked" / "x.json") == "Permission denied"


def test_a_writable_file_is_left_as_it_was(tmp_path):
    old = tmp_path / "old.json"
    old.write_text("keep me")
    assert cannot_write(old) is None
    assert old.read_text() == "keep me"
    assert cannot_write(tmp_path / "new.json") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]


def test_a_file_written_whole_replaces_the_old_one_and_keeps_a_link(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("old")
    link = tmp_path / "out.json"
    link.symlink_to(target)
    write_whole(link, b"new")
    assert link.is_symlink()
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "target.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_part(tmp_path, monkeypatch):
    old = tmp_path / "all.json"
    old.write_text("the earlier export")

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(paths.os, "replace", full)
    with pytest.raises(OSError, match="No space left"):
        write_whole(old, b"x" * 10_000)
    assert old.read_text() == "the earlier export"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.json"]


@pytest.mark.parametrize(
    "other",
    ["same", "dot-dot", "symlink", "hard-link"],
)
def test_same_file_through_links_and_dot_dot(tmp_path, other):
    a = tmp_path / "a.jpg"
    a.write_bytes(b"x")
    (tmp_path / "sub").mkdir()
    b = {"same": a, "dot-dot": tmp_path / "sub" / ".." / "a.jpg", "symlink": tmp_path / "s.jpg",
         "hard-link": tmp_path / "h.jpg"}[other]
    if other == "symlink":
        b.symlink_to(a)
    if other == "hard-link":
        os.link(a, b)
    assert same_file(a, b)
    assert not same_file(a, tmp_path / "other.jpg")
