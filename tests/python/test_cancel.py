"""Progress, callbacks, cancel from a callback and Ctrl-C (KeyboardInterrupt)."""
import os
import signal
import threading

import numpy as np
import pytest

import tomostation as ts


@pytest.fixture(scope="module")
def big():
    """Many FBP batches of 8 slices, ~5 GU in all: seconds of work, so a signal sent 20 ms
    after the first batch always arrives before the end (the job's content does not matter)."""
    data = np.random.default_rng(0).random((96, 480, 320), dtype=np.float32)
    return data, np.linspace(0, np.pi, 480, endpoint=False)


@pytest.fixture(scope="module")
def small():
    p = ts.phantom(64, angles=90, detectors=80)
    return p


def test_progress_reaches_one_monotonically_on_the_calling_thread(big):
    sino, angles = big
    seen = []
    ts.fbp(sino, angles, chunk=8, progress=lambda f, stage: seen.append(
        (f, stage, threading.current_thread() is threading.main_thread())))
    fractions = [f for f, _, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(seen) >= 2
    assert all(main for _, _, main in seen)


def test_callback_gets_every_iteration_and_false_stops_keeping_the_image(small):
    calls = []

    def callback(iteration, metrics, iterate):
        calls.append((iteration, metrics["residual"], iterate.copy()))
        return iteration < 4

    image, report = ts.sirt(small.data, small.angles, iterations=30, callback=callback,
                            callback_iterate=True, truth=small.truth, size=64,
                            return_report=True)
    assert [c[0] for c in calls] == [1, 2, 3, 4]
    assert report.stopped_early and report.iterations == 4
    residuals = [c[1] for c in calls]
    assert residuals == sorted(residuals, reverse=True)  # SIRT's residual decreases
    np.testing.assert_array_equal(calls[-1][2], image)  # the kept image is iteration 4's
    assert report.curve[-1]["error"] == pytest.approx(report.metrics["rmse"])


def test_an_exception_in_the_callback_cancels_and_is_raised(small):
    class Stop(Exception):
        pass

    iterations = []

    def callback(iteration, metrics):
        iterations.append(iteration)
        if iteration == 3:
            raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        ts.cgls(small.data, small.angles, iterations=20, stop="none", callback=callback)
    assert iterations == [1, 2, 3]


def test_an_exception_in_the_progress_callback_cancels_fbp(big):
    sino, angles = big

    def progress(fraction, stage):
        if fraction > 0:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        ts.fbp(sino, angles, chunk=8, progress=progress)


def test_ctrl_c_cancels_within_a_batch_and_raises_keyboard_interrupt(big):
    """SIGINT from another thread while the job runs: the watcher on the calling thread sees it
    (PyErr_CheckSignals), stops the job through its stop token and raises KeyboardInterrupt
    before the job completes."""
    sino, angles = big
    fractions = []
    sent = []

    def progress(fraction, stage):
        fractions.append(fraction)
        if fraction > 0 and not sent:
            sent.append(True)
            # A moment later, when the calling thread waits in the job again.
            threading.Timer(0.02, os.kill, args=(os.getpid(), signal.SIGINT)).start()

    with pytest.raises(KeyboardInterrupt):
        ts.fbp(sino, angles, chunk=8, progress=progress)
    assert sent and max(fractions) < 1.0
    # The engine is usable afterwards.
    assert ts.fbp(sino[:2], angles).shape == (2, 320, 320)


def test_ctrl_c_cancels_an_iterative_method(small):
    def callback(iteration, metrics):
        if iteration == 2:  # Ctrl-C while the callback runs (the solver waits for it)
            sender = threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT))
            sender.start()
            sender.join()
            threading.Event().wait(5)  # interrupted: KeyboardInterrupt is raised here

    iterations = []
    with pytest.raises(KeyboardInterrupt):
        ts.sirt(small.data, small.angles, iterations=50,
                callback=lambda i, m: (iterations.append(i), callback(i, m))[1])
    assert iterations == [1, 2]
