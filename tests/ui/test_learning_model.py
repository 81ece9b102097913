"""The learning page's view-model without a page: the run as start / advance / stop, the replay, the target kept
or rebuilt, and the verdicts. Expected values come from the engine run here or are worked out by hand."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from engine import Optimiser, Scale, lesson_scenario, target_preset
from ui.view_models import learning as model
from ui.view_models.learning import Case, Options, Target, Training

OPTIONS = Options(Optimiser.ADAM, 0.1, 23, Scale.SQRT, "scenario", 0, False, 1.0)


def scenario_case(scenario=None) -> Case:
    s = scenario or lesson_scenario()
    return model.case_of(s, "scenario", (("a",), np.zeros((1, 8))))


def previous_target(case: Case) -> Target:
    return Target(case.tokens, case.causal, target_preset("previous", case.tokens), "previous", (), 1)


def started(options: Options = OPTIONS) -> Training:
    case = scenario_case()
    return model.start(case, previous_target(case), options)


# --- the run ---


def test_a_run_starts_at_step_zero_going_toward_the_steps_asked_for():
    training = started()
    assert (training.run.steps, training.goal, training.status) == (0, 23, "running")
    assert training.running


def test_chunks_of_about_a_fifteenth_of_the_run_reach_the_goal_exactly():
    training, steps = started(), []
    while training.running:
        training = model.advance(training)
        steps.append(training.run.steps)
    assert steps == [5, 10, 15, 20, 23]  # chunks of max(5, ⌈23 / 15⌉) = 5 steps, the last one short
    assert training.status == "done" and model.outcome(training) == "done"


@pytest.mark.parametrize(("goal", "chunk"), [(10, 5), (75, 5), (76, 6), (375, 25), (1000, 25)])
def test_a_chunk_is_five_to_twenty_five_steps(goal, chunk):
    assert model.chunk_size(goal) == chunk


def test_stop_keeps_a_running_run_where_it_is_and_leaves_a_finished_one_alone():
    training = model.advance(started(replace(OPTIONS, steps=1000)))
    stopped = model.stop(training)
    assert (stopped.status, stopped.run.steps) == ("stopped", 25)
    assert model.outcome(stopped) == "stopped" and not model.succeeded(stopped)
    assert model.stop(stopped) is stopped
    done = replace(training, status="done")
    assert model.stop(done) is done


def test_a_diverging_run_ends_as_diverged():
    s = lesson_scenario()
    case = Case("scenario", s.tokens, s.x, False, 1.0, None, s.d_k)
    options = Options(Optimiser.GD, 10.0, 200, Scale.NONE, "random", 0, False, 1.0)
    training = model.start(case, previous_target(case), options)
    while training.running:
        training = model.advance(training)
    assert training.run.diverged and training.run.steps < 200
    assert model.outcome(training) == "diverged"


def test_a_run_matches_only_its_own_tokens_and_target():
    training = started()
    case = training.case
    assert model.matching(training, case, previous_target(case)) is training
    assert model.matching(None, case, previous_target(case)) is None
    other_target = Target(case.tokens, False, target_preset("subject", case.tokens), "subject")
    assert model.matching(training, case, other_target) is None
    moved = replace(case, x=case.x + 1.0)
    assert model.matching(training, moved, previous_target(moved)) is None


def test_the_loss_history_spans_the_whole_run_asked_for_with_gaps_ahead():
    training = model.advance(started())
    history = model.loss_history(training)
    assert history.steps == list(range(24))
    np.testing.assert_array_equal(history.losses[:6], training.run.losses)
    assert np.isnan(history.losses[6:]).all()
    assert (history.floor == training.run.objective.floor).all()


def test_the_scenarios_w_start_only_when_they_fit_x():
    case = scenario_case()
    assert model.start_choices(case) == ["scenario", "random"]
    sentence = model.case_of(lesson_scenario(), "sentence", (("a", "b"), np.zeros((2, 8))))
    assert sentence.scenario_w is None and model.start_choices(sentence) == ["random"]
    assert (sentence.d_k, sentence.causal, sentence.temperature) == (8, False, 1.0)


def test_the_output_term_needs_w_v_to_keep_xs_width():
    case = scenario_case()  # the lesson: x is 4 wide, W_V 4 × 4
    assert model.output_fits(case, "scenario") and model.output_fits(case, "random")
    w_q, w_k, w_v = case.scenario_w
    narrow = replace(case, scenario_w=(w_q, w_k, w_v[:, :3]), d_k=3)
    assert not model.output_fits(narrow, "scenario") and not model.output_fits(narrow, "random")


# --- the replay ---


def test_play_starts_over_from_the_last_step_and_goes_on_from_any_other():
    assert model.play_from(40, 40) == 0
    assert model.play_from(12, 40) == 12


def test_the_replay_shows_a_run_in_about_thirty_frames_and_stops_at_its_end():
    assert model.next_frame(0, 40) == (2, False)  # ⌈40 / 30⌉ = 2 steps a frame
    assert model.next_frame(38, 40) == (40, True)
    assert model.next_frame(0, 10) == (1, False)


def test_a_new_run_opens_its_replay_at_its_last_step():
    training = model.advance(started())
    assert model.replay_step(None, training) == 5
    assert model.replay_step(99, training) == 5
    assert model.replay_step(3, training) is None


# --- the target ---


def test_the_target_is_kept_while_the_tokens_stay_and_rebuilt_when_they_change():
    case = scenario_case()
    subject = Target(case.tokens, False, target_preset("subject", case.tokens), "subject", (), 4)
    assert model.target_for(case, subject) is subject
    longer = replace(case, tokens=(*case.tokens, "carne"), x=np.zeros((4, 4)))
    rebuilt = model.target_for(longer, subject)
    assert (rebuilt.preset, rebuilt.rev, rebuilt.tokens) == ("subject", 5, longer.tokens)
    np.testing.assert_array_equal(rebuilt.matrix, target_preset("subject", longer.tokens))
    first = model.target_for(case, None)
    assert (first.preset, first.rev) == (model.default_preset(case.tokens), 1)


def test_an_edited_target_is_divided_row_by_row_by_its_sums():
    case = scenario_case()
    old = previous_target(case)
    edited, errors = model.edited_target(case, old, np.array([[1.0, 0, 0], [1, 1, 0], [0.5, 1, 0]]))
    np.testing.assert_allclose(edited.matrix, [[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 2 / 3, 0]], rtol=1e-15)
    assert (edited.preset, edited.renormalised, edited.rev, errors) == (None, ((1, 2.0), (2, 1.5)), 2, [])


def test_a_refused_edit_keeps_the_old_target_and_names_the_cell_by_its_tokens():
    case = scenario_case()
    old = previous_target(case)
    kept, errors = model.edited_target(case, old, np.array([[1.0, -1, 0], [1, 0, 0], [0, 1, 0]]))
    np.testing.assert_array_equal(kept.matrix, old.matrix)
    assert kept.rev == old.rev + 1  # rebuilt, so that the editor shows the target kept
    assert errors == [("target_negative", {"row": "el", "col": "perro"})]


def test_a_preset_the_tokens_do_not_allow_changes_nothing():
    case = scenario_case()
    assert model.preset_target(case, previous_target(case), "no such preset") is None
    assert model.preset_target(case, previous_target(case), None) is None
    assert model.preset_target(case, previous_target(case), "subject").rev == 2


# --- the verdicts ---


def a_run(**fields) -> SimpleNamespace:
    return SimpleNamespace(**{"diverged": False, "converged_at": None, "losses": np.array([1.0, 1.0]), **fields})


def test_the_stall_reads_stalled_slower_or_small():
    converged = a_run(converged_at=12, losses=np.array([1.0, 0.01]))
    assert model.stall_verdict(a_run(losses=np.array([1.0, 0.6])), converged) == "stalled"
    assert model.stall_verdict(a_run(losses=np.array([1.0, 0.4])), converged) == "slower"
    assert model.stall_verdict(converged, converged) == "small"
    assert model.stall_verdict(a_run(), a_run()) == "small"
    assert model.stall_verdict(a_run(diverged=True), converged) == "small"


def test_a_runs_fate_is_diverged_converged_or_stuck():
    assert model.run_fate(a_run(diverged=True, converged_at=3)) == "diverged"
    assert model.run_fate(a_run(converged_at=3)) == "converged"
    assert model.run_fate(a_run()) == "stuck"


def test_the_roles_are_used_when_the_alignment_grew_clearly_and_ended_high():
    assert model.roles_used(0.0, 0.6) and model.roles_used(0.45, 0.6)  # grew by more than 0.1, ended above 0.5
    assert not model.roles_used(0.0, 0.5)  # ended at 0.5, not above
    assert not model.roles_used(0.55, 0.6)  # high, but it already was


def test_a_weight_near_zero_or_one_is_saturated():
    assert model.saturated(0.005) and model.saturated(0.995)
    assert not model.saturated(0.02) and not model.saturated(0.5)


def test_the_padded_history_ends_in_gaps():
    out = model.padded(np.array([1.0, 2.0]), 4)
    assert out[:2].tolist() == [1.0, 2.0] and np.isnan(out[2:]).all()


# --- use it ---


def test_the_learned_weights_replace_the_scenarios_and_its_divisor():
    training = model.advance(started(replace(OPTIONS, scale=Scale.DK)))
    s = lesson_scenario()
    learned = model.learned_scenario(training, s)
    np.testing.assert_array_equal(learned.w_q, training.run.w_q)
    np.testing.assert_array_equal(learned.w_k, training.run.w_k)
    assert learned.scale == Scale.DK and learned.tokens == s.tokens
    assert model.matrices_sent(training, s) == 2  # W_V was not trained


def test_a_run_can_be_sent_only_while_the_scenario_has_its_tokens():
    training = started()
    s = lesson_scenario()
    assert model.sendable(training, s)
    assert not model.sendable(training, replace(s, causal=True))
    sentence = model.case_of(s, "sentence", (("a", "b"), np.eye(2, 8)))
    assert model.sendable(replace(training, case=sentence), replace(s, causal=True))
