"""Arrays of an ``.npz`` file (``numpy.savez``: a zip of ``.npy`` members, stored uncompressed)
read in place: the file mapped into memory and each member's array a view of its bytes, its CRC
checked as ``numpy.load`` checks it, instead of copied into memory a read at a time.

Why: an import in place of a decisions file reads the similarity file's term counts (every
paper's, over 100 MB at 98,000 papers) to replace a few thousand rows. Read through ``numpy.load``
they are copied from the page cache into fresh memory (the copy and the page faults are the
system time that grew most with the store); mapped, the pages of the file are the arrays'.
"""

from __future__ import annotations

import io
import mmap
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

#: A zip file's local file header: signature, version, flags, method, time, date, CRC, sizes,
#: name length, extra length (the data follows the name and the extra field).
_LOCAL = struct.Struct("<4sHHHHHIIIHH")
_LOCAL_SIGNATURE = b"PK\x03\x04"
#: Bytes of a member read for its ``.npy`` header (numpy's headers are padded to 64 bytes; a
#: header of a few hundred bytes describes any plain array).
_NPY_HEADER_MAX = 1 << 16
#: Bytes checked at once (the CRC over a mapped member).
_CHUNK = 1 << 22


def mapped_arrays(path: Path, names: tuple[str, ...]) -> dict[str, Any]:
    """The arrays ``names`` (member names without ``.npy``) of the ``.npz`` file at ``path``,
    each a read-only view of the file mapped into memory (the mapping lives as long as a view
    does), equal to what ``numpy.load(path)[name]`` gives.

    Raises:
        OSError: the file cannot be read or mapped.
        ValueError: it is not a zip file, a member is missing, compressed, of an array of
            objects or in Fortran order, out of place, or its bytes do not match its CRC.
    """
    import numpy as np

    try:
        with zipfile.ZipFile(path) as archive:
            infos = {name: archive.getinfo(name + ".npy") for name in names}
    except (zipfile.BadZipFile, KeyError) as exc:
        raise ValueError(f"not a readable .npz ({exc})") from None
    with path.open("rb") as file:
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    arrays: dict[str, Any] = {}
    with memoryview(mapped) as view:
        for name, info in infos.items():
            if info.compress_type != zipfile.ZIP_STORED or info.compress_size != info.file_size:
                raise ValueError(f"member {name} is compressed")
            at = info.header_offset
            local = _LOCAL.unpack_from(view, at) if at + _LOCAL.size <= len(view) else None
            if local is None or local[0] != _LOCAL_SIGNATURE:
                raise ValueError(f"member {name} is out of place")
            start = at + _LOCAL.size + local[9] + local[10]
            end = start + info.file_size
            if end > len(view):
                raise ValueError(f"member {name} is truncated")
            crc = 0
            for piece in range(start, end, _CHUNK):
                crc = zlib.crc32(view[piece : min(piece + _CHUNK, end)], crc)
            if crc != info.CRC:
                raise ValueError(f"member {name} does not match its CRC")
            head = io.BytesIO(view[start : min(end, start + _NPY_HEADER_MAX)])
            version = np.lib.format.read_magic(head)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(head)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(head)
            else:
                raise ValueError(f"member {name} is of .npy version {version}")
            if fortran or dtype.hasobject:
                raise ValueError(f"member {name} is not a plain array")
            items = 1
            for size in shape:
                items *= int(size)
            if head.tell() + items * dtype.itemsize != info.file_size:
                raise ValueError(f"member {name} is not the size its header says")
            arrays[name] = np.frombuffer(mapped, dtype, count=items, offset=start + head.tell()).reshape(shape)
    return arrays


__all__ = ["mapped_arrays"]
