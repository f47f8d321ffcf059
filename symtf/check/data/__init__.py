


from functools import lru_cache as _lru_cache
from importlib import resources as _resources

import yaml as _yaml


@_lru_cache(maxsize=None)
def load(name: str):
    """The checker's data file ``name`` (``meanings.yaml`` …), parsed once per process (libyaml where
    PyYAML has it: the pure-Python parser costs tens of milliseconds a file)."""
    text = _resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    return _yaml.load(text, Loader=getattr(_yaml, "CSafeLoader", _yaml.SafeLoader))
