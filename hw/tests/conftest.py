import os
import random

import pytest


@pytest.fixture
def rng():
    seed = int(os.environ.get("GCMKIT_HW_SEED", random.randrange(2**32)))
    print(f"GCMKIT_HW_SEED={seed}")
    return random.Random(seed)
