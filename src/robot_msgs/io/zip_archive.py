"""Zip files read with bounds: evo's result zips and our ``.npz`` results.

:class:`ZipArchive` opens a zip and refuses, before reading any entry:

- more than ``max_zip_entries`` entries, or two entries with one name;
- an entry that is encrypted, or compressed other than stored or deflated (what evo's
  ``zipfile`` and NumPy's ``savez`` write): ``zipfile`` would fail deep inside with a
  ``RuntimeError`` or ``NotImplementedError``.

:meth:`ZipArchive.read` then reads one entry in pieces and refuses it when its declared
size, or the bytes it inflates to, pass ``max_bytes``, or when all the entries read from
the archive pass it together (:mod:`robot_msgs.limits`); a bad CRC, a truncated entry or
a corrupt deflate stream is a :class:`~robot_msgs.errors.FormatError` naming the entry.
A 2 GiB zip bomb (2 MB of deflated zeros) is refused by its declared size without
inflating a byte, and one that lies about its size stops at the bound.

A zip that is a stream (``<(cmd)``) is read whole first (:mod:`robot_msgs.io.bounded`),
as ``zipfile`` needs to seek.
"""

from __future__ import annotations

import io
import lzma
import struct
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from robot_msgs.documents import _short
from robot_msgs.errors import FormatError
from robot_msgs.io.bounded import named_open_error, read_input, stream_kind
from robot_msgs.limits import current_limits, raised_with

if TYPE_CHECKING:
    import os
    from types import TracebackType

    from typing_extensions import Self

__all__ = ["ZipArchive"]

_PIECE = 1 << 20
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
# What zipfile and the decompressors raise on a damaged archive (a bad CRC, a truncated
# or corrupt stream, a header that points outside the file).
_BROKEN = (
    zipfile.BadZipFile,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    OSError,
    struct.error,
    NotImplementedError,
    RuntimeError,
    ValueError,
    OverflowError,
)


class ZipArchive:
    """A zip opened for bounded reading (see the module); use it in a ``with`` block.

    Parameters
    ----------
    path : path-like
        The zip file (or a pipe).
    what : str
        What the zip should be, for messages (``"an evo result zip"``).

    Attributes
    ----------
    names : tuple of str
        The entries' names, as stored.

    Raises
    ------
    FormatError
        Not a zip; too many entries; two entries with one name; an encrypted entry or
        one compressed another way.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.zip"
    >>> with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    ...     z.writestr("a.txt", "x" * 100)
    >>> with ZipArchive(path) as archive:
    ...     archive.names, len(archive.read("a.txt"))
    (('a.txt',), 100)
    """

    def __init__(self, path: str | os.PathLike[str], *, what: str = "a zip file") -> None:
        self.source = str(path)
        self._limits = current_limits()
        self._read_total = 0
        handle: BinaryIO | Path = Path(path)
        if stream_kind(path) is not None:  # a pipe: zipfile seeks, so its bytes first
            handle = io.BytesIO(read_input(path, source=self.source))
        try:
            self._zip = zipfile.ZipFile(handle)
        except (FileNotFoundError, IsADirectoryError) as err:
            raise named_open_error(err, self.source, what=what) from err
        except PermissionError:
            raise
        except _BROKEN as err:
            msg = f"{self.source}: not {what} ({_short(err)})"
            raise FormatError(msg) from err
        try:
            self._check()
        except BaseException:
            self._zip.close()
            raise
        self.names = tuple(info.filename for info in self._zip.infolist())

    def _check(self) -> None:
        infos = self._zip.infolist()
        if len(infos) > self._limits.max_zip_entries:
            msg = (
                f"{self.source}: {len(infos)} entries, more than the "
                f"{self._limits.max_zip_entries} read from one zip"
            )
            raise FormatError(msg)
        seen: set[str] = set()
        for info in infos:
            if info.filename in seen:
                msg = (
                    f"{self.source}: two entries named {_quoted(info.filename)}; a zip "
                    "written by evo or NumPy holds each name once (one would hide the other)"
                )
                raise FormatError(msg)
            seen.add(info.filename)

    def __enter__(self) -> Self:
        """Return the archive."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Close the zip."""
        self._zip.close()

    def size(self, name: str) -> int:
        """Return the size entry ``name`` declares (uncompressed bytes)."""
        return int(self._zip.getinfo(name).file_size)

    def read(self, name: str, *, limit: int | None = None, document: bool = False) -> bytes:
        """Read entry ``name`` whole, bounded (the module's rules).

        Parameters
        ----------
        name : str
            The entry, one of :attr:`names`.
        limit : int, optional
            The most bytes this entry may hold (default ``max_bytes``).
        document : bool
            The entry is a document (evo's JSON, a result's skeleton): bounded by
            ``max_document``, and its error says how to raise that bound.

        Raises
        ------
        FormatError
            An encrypted or unsupported entry; more bytes than the bound (declared or
            inflated); a damaged entry (bad CRC, corrupt or truncated data).
        """
        info = self._zip.getinfo(name)
        where = f"{self.source}: {_quoted(name)}"
        if info.flag_bits & 0x1:
            msg = f"{where}: is encrypted; robot_msgs reads no password-protected entry"
            raise FormatError(msg)
        if info.compress_type not in _METHODS:
            msg = (
                f"{where}: compression method {info.compress_type} is not read (only "
                "stored and deflated, what evo and NumPy write)"
            )
            raise FormatError(msg)
        if document:
            limit = self._limits.max_document
        own = self._limits.max_bytes if limit is None else limit
        bound = min(own, self._left())
        # The entry's own bound or what is left of the zip's: how to raise that one is said.
        raising = "max_document" if document and bound == own else "max_bytes"
        if info.file_size > bound:
            raise self._too_large(where, f"declares {info.file_size} bytes", own, raising)
        pieces: list[bytes] = []
        size = 0
        try:
            with self._zip.open(info) as entry:
                while piece := entry.read(_PIECE):
                    size += len(piece)
                    if size > bound:
                        got = f"inflates to more than {bound} bytes"
                        raise self._too_large(where, got, own, raising)
                    pieces.append(piece)
        except _BROKEN as err:
            if isinstance(err, FormatError):
                raise
            msg = f"{where}: damaged entry ({_short(err)})"
            raise FormatError(msg) from err
        self._read_total += size
        return b"".join(pieces)

    def _left(self) -> int:
        return max(self._limits.max_bytes - self._read_total, 0)

    def _too_large(self, where: str, got: str, own: int, bound: str) -> FormatError:
        total = self._limits.max_bytes
        msg = (
            f"{where}: {got}, past the bound of {own} bytes an entry and {total} bytes all "
            "the entries of one zip may inflate to (a zip bomb inflates without end); if it "
            f"is what you meant, raise the bound ({raised_with(bound)})"
        )
        return FormatError(msg)


def _quoted(name: str) -> str:
    """Show an entry name in a message: repr, cut to 60 characters (a name can be anything)."""
    shown = name if len(name) <= 60 else name[:57] + "..."
    return repr(shown)
