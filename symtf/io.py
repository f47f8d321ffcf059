r"""Writing a file without ever losing the one it replaces.

:func:`write_atomic` is the one way symtf writes a file (a rendered post, report pages, figures,
an npz of activations): the bytes go to a temporary file in the same directory, are flushed and
fsynced, get the original's permission bits, and only then take the original's place with
``os.replace`` (atomic on POSIX). A full disk, a file-size limit or a kill half-way leaves the
original byte-identical and no temporary file behind; the error names the file.

Writers that want a file object (``numpy.savez``, ``Figure.savefig``) write to a
``io.BytesIO`` and hand its bytes here.
"""
from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from .errors import WriteError

_CHUNK = 1 << 20  # bytes per os.write call; a failing write may come at any of them


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view[:_CHUNK])
        view = view[written:]


def _create_temp(directory: Path, name: str) -> tuple[int, Path]:
    """An exclusive new file beside the target (mode 0666 less the umask, as a plain create gets)."""
    for _ in range(100):
        temp = directory / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(directory))


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # not every platform opens directories; the rename itself is already atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _holds(target: Path, data: bytes) -> bool:
    try:
        return target.read_bytes() == data
    except OSError:  # unreadable (a write-only file): write it anyway
        return False


def _describe(exc: OSError) -> str:
    if exc.errno == errno.EFBIG:
        return "file too large (a file-size limit was reached)"
    return exc.strerror or str(exc)


def write_atomic(path: str | os.PathLike, data: bytes | str, encoding: str = "utf-8") -> Path:
    """Replace the file at ``path`` by ``data`` (``str`` is encoded with ``encoding``) atomically.

    The file is left alone when it already holds exactly ``data`` (no new mtime, no diff for a
    writer who keeps the output in git). A symbolic link keeps pointing where it did: its target is
    replaced. Raises :class:`symtf.errors.WriteError` naming ``path`` on any failure; the original
    is then unchanged and the temporary file removed. Returns the path written.
    """
    if isinstance(data, str):
        data = data.encode(encoding)
    shown = os.fspath(path)
    target = Path(os.path.realpath(path))
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    except OSError as exc:
        raise WriteError(f"cannot write {shown}: {_describe(exc)}") from None
    if old is not None and not os.path.isfile(target):
        raise WriteError(f"cannot write {shown}: exists and is not a regular file")
    if old is not None and old.st_size == len(data) and _holds(target, data):
        return Path(path)
    temp = None
    try:
        fd, temp = _create_temp(target.parent, target.name)
        try:
            _write_all(fd, data)
            if old is not None:
                os.fchmod(fd, old.st_mode & 0o7777)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
        temp = None
    except BaseException as exc:
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass
        if isinstance(exc, OSError):
            kept = "; the original is unchanged" if old is not None else ""
            raise WriteError(f"cannot write {shown}: {_describe(exc)}{kept}") from None
        raise
    _fsync_directory(target.parent)
    return Path(path)
