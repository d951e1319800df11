"""The public API is what ``athena_lab`` exports, and nothing else leaks (httpx's habit):
``__all__`` names every public member, each resolves, and each comes from the package.
A new public name is added to ``_EXPORTS`` and ``__all__`` in athena_lab/__init__.py together,
or this fails naming it."""

from __future__ import annotations


import pytest

import athena_lab

pytestmark = pytest.mark.unit


def test_all_names_every_exported_member_and_nothing_else() -> None:
    public = sorted((name for name in dir(athena_lab) if not name.startswith("_")), key=str.casefold)
    listed = sorted((name for name in athena_lab.__all__ if not name.startswith("_")), key=str.casefold)
    assert public == listed, "athena_lab.__all__ and what athena_lab exports differ: add the name to both " \
                             "_EXPORTS and __all__ in athena_lab/__init__.py"
    assert set(athena_lab._EXPORTS) == set(listed)


@pytest.mark.parametrize("name", [n for n in athena_lab.__all__ if not n.startswith("_")])
def test_every_exported_member_resolves_to_the_package_s_own_object(name: str) -> None:
    member = getattr(athena_lab, name)
    assert member.__module__.startswith("athena_lab."), f"{name} comes from {member.__module__}"
    assert member is getattr(__import__(athena_lab._EXPORTS[name], fromlist=[name]), name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Retriever'"):
        athena_lab.Retriever  # noqa: B018


def test_every_user_error_is_in_the_tree_the_errors_module_draws() -> None:
    """errors.py's docstring draws the exception tree: every AthenaError subclass is in it."""
    from athena_lab import errors

    classes = {c.__name__ for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.AthenaError)}
    drawn = set(__import__("re").findall(r"[├└]── (\w+)", errors.__doc__ or ""))
    assert classes - {"AthenaError"} == drawn, f"not drawn: {classes - drawn - {'AthenaError'}}; stale: {drawn - classes}"
