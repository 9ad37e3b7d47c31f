"""The parts of the Runs window (:mod:`readsim.app.widgets.runs_window`), one module each: the
options panel (:mod:`.options`), the four tabs (:mod:`.runs_tab`, :mod:`.significance`,
:mod:`.correlation`, :mod:`.fidelity`), the Topics tab's table (:mod:`.topics_tab`) and difference
plot (:mod:`.topics_plot`), and the table model they share (:mod:`.cells`). Each tab
is a widget with its own table model filled by one ``set_rows(...)`` from the engine's results
(:class:`readsim.core.run_comparison.Comparison`, :class:`readsim.core.fidelity_tables.Fidelity`); the
models build their cells without a window. See docs/architecture.md."""
