# acres_dbw_sim: `make run` and `make test` bootstrap everything they need
# (a Python 3.11 venv with the ROS 2 Kilted wheels, the interface packages PyPI
# lacks, this package), then run. Each step leaves a stamp in .venv/.stamps only
# when it succeeded, so a second run with nothing changed skips straight to work
# and a failed run is never trusted by the next one.

SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
VPY := $(VENV)/bin/python
STAMPS := $(VENV)/.stamps
ENV_SH := $(VENV)/setup.sh
PIP := $(VPY) -m pip --disable-pip-version-check
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# Arguments passed through to the node / pytest: make run ARGS="-p time_mode:=sim"
ARGS ?=

INTERFACE_SOURCES := $(shell find msg_adapters/interfaces -type f \( -name '*.msg' -o -name '*.srv' -o -name CMakeLists.txt -o -name package.xml \) 2>/dev/null)
PACKAGE_SOURCES := setup.py setup.cfg package.xml tools/bootstrap.py $(wildcard launch/* config/* rviz/*)
# The numba kernels (the model's and the DBW's) are cached under acres_dbw_sim/model/__pycache__/
# numba-<digest of every compiled module> (model/_jit.py); a change compiles them again.
KERNEL_SOURCES := $(wildcard acres_dbw_sim/model/*.py) $(wildcard acres_dbw_sim/vehicles/*/*.py) \
                  $(wildcard acres_dbw_sim/dbw/*.py)

# The venv is self-contained: a ROS installation or another venv sourced in the
# calling shell must not leak in (pip would take their packages as installed,
# CMake would find their interfaces). .venv/setup.sh sets these for the run.
unexport PYTHONPATH AMENT_PREFIX_PATH CMAKE_PREFIX_PATH LD_LIBRARY_PATH COLCON_PREFIX_PATH _ROS_WHEELS_BOOTSTRAP_COMPLETE

# A venv whose interpreter no longer starts (Python moved or upgraded) is removed
# here, before any rule trusts its stamps.
ifneq ($(wildcard $(STAMPS)/venv),)
ifneq ($(shell $(VPY) -c "print('ok')" 2>/dev/null),ok)
$(warning .venv is broken (its Python does not start): removing it and bootstrapping again)
$(shell rm -rf $(VENV))
endif
endif

.PHONY: run test bootstrap demo bench clean distclean help
.DEFAULT_GOAL := help

help:
	@echo "make run    bootstrap if needed, then run the simulator node on /vehicle"
	@echo "make test   bootstrap if needed, then run the whole pytest suite"
	@echo "make demo   run the demo driver against a running 'make run'"
	@echo "make bench  run the benchmarks under bench/"
	@echo "make clean  remove build products (keeps .venv); make distclean removes .venv too"

bootstrap: $(STAMPS)/package $(STAMPS)/kernels

$(STAMPS)/venv:
	@command -v $(PYTHON) >/dev/null 2>&1 || { \
	  echo "error: $(PYTHON) not found. The ROS 2 Kilted wheels are built for CPython 3.11:"; \
	  echo "       install Python 3.11 (e.g. apt-get install python3.11 python3.11-venv) or set PYTHON=/path/to/python3.11"; \
	  exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || { \
	  echo "error: $(PYTHON) is not Python 3.11; the ROS 2 Kilted wheels need CPython 3.11 (set PYTHON=...)"; exit 1; }
	@echo "bootstrap: creating the Python 3.11 venv in $(VENV) (then: ROS 2 wheels ~1 min, interface builds ~4 min, model kernels ~0.5 min on 2 cores)"
	@rm -rf $(VENV)
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "error: could not create the venv: install the venv module (apt-get install python3.11-venv)"; exit 1; }
	@mkdir -p $(STAMPS) && touch $@

# ROS wheels and the interface build tools: a change here rebuilds the interfaces.
$(STAMPS)/ros: $(STAMPS)/venv requirements/ros.txt requirements/build.txt
	@echo "bootstrap: installing the ROS 2 Kilted wheels into $(VENV)"
	@$(VPY) tools/bootstrap.py pip-install requirements/ros.txt requirements/build.txt
	@$(VPY) -c "import rclpy, numpy" || { \
	  echo "error: the venv is incomplete after pip install; run 'make distclean' and try again"; exit 1; }
	@$(VPY) tools/bootstrap.py patch-cmake
	@touch $@

# Plain Python libraries and test tools: a change here reinstalls only these.
$(STAMPS)/python: $(STAMPS)/ros requirements/python.txt requirements/test.txt
	@echo "bootstrap: installing Python dependencies into $(VENV)"
	@$(VPY) tools/bootstrap.py pip-install requirements/python.txt requirements/test.txt
	@touch $@

$(STAMPS)/interfaces: $(STAMPS)/ros $(INTERFACE_SOURCES)
	@$(VPY) tools/bootstrap.py build-interfaces --jobs $(JOBS)
	@touch $@

$(STAMPS)/package: $(STAMPS)/interfaces $(STAMPS)/python $(PACKAGE_SOURCES)
	@$(PIP) install -q --no-deps --no-build-isolation -e . 2>&1 | grep -v "^WARNING: Location" ; \
	  test $${PIPESTATUS[0]} -eq 0 || { echo "error: installing acres_dbw_sim into the venv failed"; exit 1; }
	@$(VPY) tools/bootstrap.py install-index
	@$(VPY) tools/bootstrap.py write-env
	@. ./$(ENV_SH) && python -c "from ds_dbw_msgs.msg import SteeringCmd; from dbw_polaris_msgs.msg import ThrottleCmd; from tf2_msgs.msg import TFMessage; from ackermann_msgs.msg import AckermannDriveStamped; from autoware_vehicle_msgs.srv import ControlModeCommand" || { \
	  echo "error: the built interfaces do not import; run 'make distclean' and try again"; exit 1; }
	@touch $@

# Compile and cache the model's numba kernels now, not at the first `make run`.
$(STAMPS)/kernels: $(STAMPS)/package $(KERNEL_SOURCES)
	@. ./$(ENV_SH) && python tools/bootstrap.py warm-kernels
	@touch $@

run: bootstrap
	@. ./$(ENV_SH) && exec sim_node --ros-args --params-file config/sim.yaml $(ARGS)

test: bootstrap
	@. ./$(ENV_SH) && exec python -m pytest $(ARGS)

demo: bootstrap
	@. ./$(ENV_SH) && exec demo_driver $(ARGS)

bench: bootstrap
	@. ./$(ENV_SH) && for b in bench/bench_*.py; do echo "== $$b"; python $$b || exit 1; done

clean:
	rm -rf _interfaces_build build install log .pytest_cache
	rm -f $(STAMPS)/interfaces $(STAMPS)/package

distclean: clean
	rm -rf $(VENV)
