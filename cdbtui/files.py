"""Files of saves: safe reads, atomic writes, appends that are all or nothing, and
the folder lock every writer holds (no knowledge of what a save contains).

- `read_bytes_stamped`: the bytes of a regular file (never a FIFO or a device,
  never more than `MAX_SIZE`) and the stamp of exactly those bytes;
- `write_atomic`: temporary file in the target's folder, fsync, `os.replace`,
  fsync of the folder (the previous version kept as `NAME.bak` on request);
- `append_all`: append and fsync, cut back on a short write (a full disk);
- `folder_lock`: an exclusive, reentrant flock on the folder of a file;
- `free_path`: the first of `NAME`, `NAME-2`, `NAME-3`… that does not exist.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


class SaveError(Exception):
    """A save that cannot be read or written; `str()` is one Spanish line."""


#: What the system's errors mean, in Spanish (`reason`): the operating system's own
#: text is in the language of the machine, often English.
_REASONS = {
    errno.EACCES: "sin permiso",
    errno.EPERM: "operación no permitida",
    errno.ENOENT: "no existe",
    errno.ENOTDIR: "una parte de la ruta no es una carpeta",
    errno.EISDIR: "es una carpeta",
    errno.ELOOP: "demasiados enlaces simbólicos (¿un enlace que apunta a sí mismo?)",
    errno.ENAMETOOLONG: "el nombre es demasiado largo",
    errno.ENOSPC: "el disco está lleno",
    errno.EDQUOT: "se ha superado la cuota de disco",
    errno.EFBIG: "el archivo supera el tamaño que el sistema permite",
    errno.EROFS: "el sistema de archivos es de solo lectura",
    errno.EIO: "error de entrada/salida del disco",
    errno.EBUSY: "el archivo está ocupado",
    errno.EEXIST: "ya existe",
    errno.EMFILE: "demasiados archivos abiertos",
    errno.ENXIO: "no es un archivo normal",
    errno.EADDRINUSE: "la dirección ya está en uso (¿otro servidor en ese puerto?)",
    errno.EADDRNOTAVAIL: "esa dirección no es de esta máquina",
}


def reason(error: OSError) -> str:
    """Why `error` happened, in Spanish (the system's own words when unknown)."""
    known = _REASONS.get(error.errno) if error.errno is not None else None
    return known or error.strerror or str(error)


#: The largest save read (a whole campaign evening is a few MB): a bigger file, or
#: something that is not a regular file (a FIFO, /dev/zero), is not a save.
MAX_SIZE = 256 * 1024 * 1024


def read_bytes(path: Path) -> bytes:
    return read_bytes_stamped(path)[0]


def read_bytes_stamped(path: Path) -> tuple[bytes, tuple[int, int, int]]:
    """The bytes of the save at `path` and the stamp of exactly those bytes."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise SaveError(f"no existe {path}") from None
    except IsADirectoryError:
        raise SaveError(f"{path} es una carpeta, no una partida") from None
    except OSError as error:
        raise SaveError(f"no se puede leer {path}: {reason(error)}") from None
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise SaveError(f"{path} es una carpeta, no una partida")
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(f"{path} no es un archivo normal (¿una tubería o un dispositivo?):"
                            " no es una partida")
        if info.st_size > MAX_SIZE:
            raise SaveError(f"{path} ocupa {info.st_size // (1024 * 1024)} MB: demasiado para"
                            " ser una partida")
        chunks = []
        left = MAX_SIZE + 1
        while left > 0:
            chunk = os.read(handle, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise SaveError(f"{path} es demasiado grande para ser una partida")
        return b"".join(chunks), fd_stamp(handle)
    except OSError as error:
        raise SaveError(f"no se puede leer {path}: {reason(error)}") from None
    finally:
        os.close(handle)


def _mode_for(path: Path) -> int:
    """Keep an existing save's permissions; a new one gets the usual 0o666 & ~umask
    (mkstemp's private 0o600 would hide the save from a player view run by others)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _fsync_folder(folder: Path) -> None:
    try:
        directory = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory)
    except OSError:
        pass
    finally:
        os.close(directory)


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def _keep_backup(path: Path) -> None:
    """Make `NAME.toml.bak` the current version of `path` (a hard link: no copy)."""
    staging = path.with_name(f".{path.name}.bak.tmp")
    staging.unlink(missing_ok=True)
    try:
        try:
            os.link(path, staging)
        except FileNotFoundError:
            return
        except OSError:  # a file system without hard links
            shutil.copy2(path, staging)
        os.replace(staging, backup_path(path))
    except BaseException:
        staging.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str, *, backup: bool = False) -> None:
    """Replace `path` with `text` so that a crash leaves the old or the new file whole."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(handle, _mode_for(path))
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if backup:
            _keep_backup(path)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def fd_stamp(handle: int) -> tuple[int, int, int]:
    info = os.fstat(handle)
    return (info.st_ino, info.st_size, info.st_mtime_ns)


#: How long a write waits for another program's lock on the folder before giving up.
LOCK_WAIT = 10.0
#: Locks this process holds, by folder: (descriptor, depth).  A lock is reentrant
#: within the process (flock on a second descriptor of the same process would wait
#: for itself).
_HELD: dict[str, list[int]] = {}


@contextmanager
def folder_lock(path: Path) -> Iterator[None]:
    """An exclusive lock (flock) on the folder of the save `path` (its real folder,
    through symbolic links): every cdbtui program that reads a save to write it
    holds it from that read until the write is durable."""
    folder = os.path.dirname(os.path.realpath(path)) or "."
    held = _HELD.get(folder)
    if held is not None:
        held[1] += 1
        try:
            yield
        finally:
            held[1] -= 1
        return
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        yield  # no lock to be had (an odd file system): write anyway
        return
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise SaveError(f"otro programa tiene bloqueada la carpeta de {path}"
                                    " desde hace más de 10 s: no se guarda") from None
                time.sleep(0.01)
            except OSError:
                break  # flock not supported here: write anyway
        _HELD[folder] = [handle, 1]
        try:
            yield
        finally:
            del _HELD[folder]
    finally:
        os.close(handle)  # releases the lock


def free_path(first: Path, numbered: Callable[[int], Path]) -> Path:
    """`first`, or `numbered(2)`, `numbered(3)`…: the first that does not exist."""
    path, number = first, 2
    while os.path.lexists(path):
        path, number = numbered(number), number + 1
    return path


def free_copy(path: Path, suffix: str) -> Path:
    """Where to keep a copy of `path` beside it: `NAME.toml.v1`, `NAME.toml.v1-2`…"""
    return free_path(path.with_name(path.name + suffix),
                     lambda n: path.with_name(f"{path.name}{suffix}-{n}"))


def append_all(path: Path, data: bytes) -> tuple[int, int, int]:
    """Append `data` to `path` and fsync it, all or nothing: a short write (a full
    disk) is cut back to the old size before the error is raised.  Returns the
    file's stamp after the write."""
    handle = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        size = os.fstat(handle).st_size
        try:
            left = data
            while left:
                written = os.write(handle, left)
                if written <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                left = left[written:]
            os.fsync(handle)
        except BaseException as error:
            try:
                os.ftruncate(handle, size)
                os.fsync(handle)
                restored = fd_stamp(handle)
            except OSError:
                restored = None
            if isinstance(error, OSError):
                error.restored_stamp = restored  # type: ignore[attr-defined]
            raise
        return fd_stamp(handle)
    finally:
        os.close(handle)
