"""What the tests share; no test lives here, and no test module imports another.

- :mod:`helpers.dds`: the one way to wait for DDS (:func:`~helpers.dds.matched`), the graph queries,
  service calls and polling (``wait_for``, ``spin_for``).
- :mod:`helpers.processes`: node processes a test starts (``RosProcess``) and the session's own
  process table, for the clean-up after each test.
- :mod:`helpers.dbw`: ``FakeVehicle`` and the DBW unit tests' set-up.
- :mod:`helpers.reference_layout`: the ds_dbw_msgs 2.3.11 layout the tests check against.
- :mod:`helpers.bags`, :mod:`helpers.geometry`, :mod:`helpers.replay`, :mod:`helpers.model`: checks and
  fixtures used by more than one test module.
"""
