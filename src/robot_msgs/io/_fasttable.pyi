from robot_msgs.typing import Float64Array, Int64Array

def count_lines(data: bytes, /) -> int: ...
def parse(
    data: bytes,
    ncols: int,
    extra_columns: bool,
    header: bool,
    values: Float64Array,
    lines: Int64Array,
    /,
) -> int: ...
