# Types of the compiled fast path of robot_msgs.io.table (_fasttable.c; see its header).
from robot_msgs.typing import Float64Array, Int64Array

def count_lines(data: bytes, /) -> int: ...
def parse(
    data: bytes,
    extra_columns: bool,
    header: bool,
    parts: tuple[Float64Array, ...],
    lines: Int64Array,
    /,
) -> int: ...
