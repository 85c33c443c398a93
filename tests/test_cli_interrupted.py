

def test_an_error_after_a_ctrl_c_is_the_interrupt(monkeypatch, capsys):
    """A Ctrl-C to the process group reaches the workers too: one that dies
    of it can fail the pool before the runner's own KeyboardInterrupt, held
    back while it was importing, comes again. The command then ends as
    interrupted (130), not as the program's error (1); and an error with no
    signal before it is still an error."""
    from sandbox import cli, signals
    from sandbox.native import SandboxError

    def broken():
        raise SandboxError("a worker process ended unexpectedly")
    assert cli._guard(broken) == 1
    assert capsys.readouterr().err == "error: a worker process ended unexpectedly\n"
    monkeypatch.setattr(signals, "_INTERRUPTED", True)
    assert cli._guard(broken) == 130
    assert capsys.readouterr().err == "interrupted\n"
