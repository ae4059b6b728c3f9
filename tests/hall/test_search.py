"""Find your table: a name by its characters, its pinyin or its pinyin initials (issue 21)."""

from __future__ import annotations

import pytest

from referee_desk.hall.search import matches


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("zs", "张三"),  # the example: initials
        ("ZS", "张三"),
        ("ｚｓ", "张三"),  # full-width letters from a Chinese keyboard
        ("zhangsan", "张三"),
        ("zhang", "张三"),
        ("张", "张三"),
        ("三", "张三"),
        ("zw", "张伟"),
        ("cz", "曾志"),  # 曾 read ceng (a heteronym: also zeng)
        ("zz", "曾志"),
        ("li n", "李娜"),
        ("Ann", "Anna Li"),
    ],
)
def test_a_name_is_found(query, name):
    assert matches(name, query)


@pytest.mark.parametrize(
    ("query", "name"),
    [("ls", "张三"), ("sz", "张三"), ("", "张三"), ("  ", "张三"), ("zhangsi", "张三")],
)
def test_other_names_are_not_found(query, name):
    assert not matches(name, query)
