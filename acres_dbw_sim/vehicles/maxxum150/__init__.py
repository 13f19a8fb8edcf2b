"""The Case IH Maxxum 150 tractor's own parts (maxxum-150-dynamics.md).

One module per section of the page:

============================  ==================================================
Module                        Page section
============================  ==================================================
``params``                    Parameters (``config/maxxum150.json``)
``mass``                      Chassis and Mass Properties (mounts, static loads,
                              ApplyImplementMass, legacy box inertia)
``steering``                  Steering (delay, lag, lock, rate limit; Ackermann
                              is the shared ``model.steering.ackermann_rad``)
``engine``                    Engine (torque curve, governors, loads, hand
                              throttle and PTO)
``clutch``                    Clutch (engagement, capacity, stall protection)
``transmission``              Transmission, Front-Wheel Drive, Axle and
                              Differential (data for the shared solve)
``brakes``                    Brakes and Park Brake
``chassis``                   Chassis and Mass Properties (air drag),
                              Front-Axle Oscillation
``implement``                 Legacy Tractor (ASABE D497.7 draft, mounted and
                              trailed implement), Implement Coupling
============================  ==================================================

``VIN`` is the simulated tractor's identity in the DBW's ``system/report``.

Frames: body x forward, y left, z up (REP-103; the page's y points right, so
its lateral signs are mirrored here where stated). The body origin is 0.4 L
ahead of the rear axle at the height h_cg. Wheels 0 FL, 1 FR, 2 RL, 3 RR.
"""

#: Simulated VIN of the tractor (17 characters, ISO 3779, valid check digit; not a real vehicle).
VIN = "JJAMXM152TS000001"
