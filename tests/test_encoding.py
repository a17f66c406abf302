"""The shared observation machinery: schema layout, and a view kept in table seat order."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_envs.core import encoding
from tabletop_envs.core.encoding import (
    OTHERS,
    SEATS,
    Field,
    KeptObservation,
    ObservationSchema,
    TableLayout,
)

MAX_PLAYERS = 3
SCHEMA = ObservationSchema(
    [
        Field("round", (2,)),
        Field("score", (MAX_PLAYERS, 2), 10),
        Field("hand_sizes", (MAX_PLAYERS - 1,), 5),
    ]
)
TABLE = TableLayout(SCHEMA, MAX_PLAYERS, {"score": SEATS, "hand_sizes": OTHERS})


def stored(num_players: int) -> np.ndarray:
    """A stored vector where each seat's rows hold 10 * seat + column + 1."""
    kept = KeptObservation(TABLE, 1)
    kept.values[TABLE.at("round") : TABLE.at("round") + 2] = (7, 8)
    for seat in range(num_players):
        kept.values[TABLE.at("score", seat)] = 10 * seat + 1
        kept.values[TABLE.at("score", seat) + 1] = 10 * seat + 2
        kept.values[TABLE.at("hand_sizes", seat)] = seat + 1
    return kept.values


@pytest.mark.parametrize("num_players", [2, 3])
def test_gather_turns_the_seat_rows_to_face_each_observer(num_players: int) -> None:
    values = stored(num_players)
    for player in range(num_players):
        view = SCHEMA.decode(SCHEMA.scale(values[TABLE.gather(num_players, player)]))
        assert view["round"].tolist() == [7, 8]
        for r in range(MAX_PLAYERS):
            seat = (player + r) % num_players
            expected = [10 * seat + 1, 10 * seat + 2] if r < num_players else [0, 0]
            assert view["score"][r].tolist() == expected
        others = [(player + r) % num_players + 1 for r in range(1, num_players)]
        assert view["hand_sizes"].tolist() == others + [0] * (MAX_PLAYERS - num_players)


def test_lazy_decoding_gives_each_field_as_decode_does_when_it_is_read() -> None:
    vector = SCHEMA.scale(stored(3)[TABLE.gather(3, 2)])
    full, lazy = SCHEMA.decode(vector), SCHEMA.decode_lazy(vector)
    assert len(lazy) == 0
    for name in ("score", "round", "hand_sizes", "score"):
        assert lazy[name].shape == full[name].shape
        assert np.array_equal(lazy[name], full[name])
    assert sorted(lazy) == sorted(full)
    with pytest.raises(KeyError, match="no observation field 'scores'"):
        lazy["scores"]


def test_lazy_unscaled_decoding_gives_each_field_as_decode_does_when_it_is_read() -> None:
    unscaled = stored(3)[TABLE.gather(3, 1)].astype(np.float32)
    full = SCHEMA.decode(SCHEMA.scale(unscaled.copy()))
    lazy = SCHEMA.decode_unscaled_lazy(unscaled)
    assert len(lazy) == 0
    for name in ("hand_sizes", "score", "round"):
        assert lazy[name].dtype == full[name].dtype
        assert np.array_equal(lazy[name], full[name])
    assert sorted(lazy) == sorted(full)


def test_rounded_and_flat_decoding_lay_out_the_fields_as_decode_gives_them() -> None:
    vector = SCHEMA.scale(stored(3)[TABLE.gather(3, 1)])
    fields = SCHEMA.decode(vector)
    laid_out = np.concatenate([fields[field.name].ravel() for field in SCHEMA.fields])
    assert laid_out.tolist()[2:4] == [11, 12]
    assert SCHEMA.rounded(vector).tolist() == laid_out.tolist() == SCHEMA.decode_flat(vector)
    with pytest.raises(ValueError, match="expected"):
        SCHEMA.rounded(vector[:-1])


@pytest.mark.parametrize("few", [0, encoding.FEW_ENTRIES])
@pytest.mark.parametrize("fields", [["score", "round"], [("score", 2), "hand_sizes"]])
def test_a_field_reader_gives_the_decoded_values_of_its_fields(
    fields: list, few: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(encoding, "FEW_ENTRIES", few)  # numpy's rounding, then Python's
    vector = SCHEMA.scale(stored(3)[TABLE.gather(3, 1)])
    vector[SCHEMA.offset("score")] -= 0.04  # off the grid: rounded (up) as decode rounds it
    full = SCHEMA.decode(vector)
    reader = SCHEMA.reader(fields)
    values = reader.read(vector)
    expected: list[int] = []
    for item in fields:
        name, rows = (item, None) if isinstance(item, str) else item
        assert reader.at[name] == len(expected)
        expected += full[name][:rows].ravel().tolist()
    assert values == expected and all(type(value) is int for value in values)


def test_a_field_reader_refuses_an_unknown_field_and_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="no observation field 'scores'; fields: "):
        SCHEMA.reader(["scores"])
    with pytest.raises(ValueError, match=r"shape \(3,\), expected \(10,\)"):
        SCHEMA.reader(["round"]).read(np.zeros(3, dtype=np.float32))


def test_view_of_gives_the_fields_of_a_copied_vector() -> None:
    vector = stored(2)[TABLE.gather(2, 1)]
    view = SCHEMA.view_of(vector)
    assert view["round"].tolist() == [7, 8]
    assert view["score"][0].tolist() == [11, 12] and view["hand_sizes"].tolist() == [1, 0]
    vector[:] = 0
    assert view["round"].tolist() == [7, 8]


def test_the_zero_position_stays_zero_and_positions_cover_a_seat() -> None:
    values = stored(2)
    assert values[TABLE.zero] == 0
    seat_one = TABLE.positions(["score", "hand_sizes"], seat=1)
    assert sorted(values[seat_one].tolist()) == [2, 11, 12]
    assert len(TABLE.positions(["score"])) == 2 * MAX_PLAYERS


def test_a_block_is_stale_only_when_its_key_changes() -> None:
    kept = KeptObservation(TABLE, 2)
    block = TABLE.positions(["round"])
    assert kept.stale(0, (1,), block)
    kept.values[block] = 5
    assert not kept.stale(0, (1,), block)
    assert kept.values[block].tolist() == [5, 5]
    copy = kept.copy()
    assert kept.stale(0, (2,), block) and kept.values[block].tolist() == [0, 0]
    assert copy.values[block].tolist() == [5, 5] and not copy.stale(0, (1,), block)
    assert kept.stale(1, None, block)  # a never-encoded block is stale for any key


def test_a_key_may_hold_the_states_own_lists() -> None:
    """A list in a key (or the key itself) is stored as a copy: changing the live list in
    place makes the block stale; a new list with the same contents is the same key."""
    kept = KeptObservation(TABLE, 1)
    block = TABLE.positions(["round"])
    hand = [3, 1]
    assert kept.stale(0, (7, hand), block)
    assert not kept.stale(0, (7, hand), block)
    hand.append(4)
    assert kept.stale(0, (7, hand), block)
    assert not kept.stale(0, (7, [3, 1, 4]), block)
    deck = [2]
    assert kept.stale(0, deck, block)
    deck.pop()
    assert kept.stale(0, deck, block)


def test_restamp_stores_a_key_and_gives_the_old_one_back_writing_nothing() -> None:
    """For a core that updates part of a block itself: the values stay, the key is a copy."""
    kept = KeptObservation(TABLE, 1)
    block = TABLE.positions(["round"])
    deck = [1, 2]
    assert kept.stale(0, (5, deck), block)
    kept.values[block] = 3
    deck.append(9)
    assert kept.restamp(0, (5, deck)) == (5, [1, 2])
    assert kept.values[block].tolist() == [3, 3]
    deck.pop()
    assert kept.stale(0, (5, deck), block), "the stored key is a copy of the live list"


def test_bad_seat_fields_are_named() -> None:
    with pytest.raises(ValueError, match="no such observation fields"):
        TableLayout(SCHEMA, MAX_PLAYERS, {"nope": SEATS})
    with pytest.raises(ValueError, match="is not SEATS or OTHERS"):
        TableLayout(SCHEMA, MAX_PLAYERS, {"score": "mine"})
    with pytest.raises(ValueError, match="seat rows"):
        TableLayout(SCHEMA, MAX_PLAYERS, {"score": OTHERS})


def test_the_scales_are_what_scale_multiplies_by_and_read_only() -> None:
    scales = SCHEMA.scales
    np.testing.assert_array_equal(SCHEMA.scale(np.ones(SCHEMA.size, dtype=np.float32)), scales)
    with pytest.raises(ValueError):
        scales[0] = 2.0
