/*
 * internal.h: functions the core's files share but the public header does
 * not promise.
 */
#ifndef TAK_CORE_INTERNAL_H
#define TAK_CORE_INTERNAL_H

#include "tak/position.h"

/* The result after `mover` played, judged from the board alone: roads first
 * (the mover wins a double road), then a full board or an empty reserve
 * (flats with komi). `check_road[c]` says whether colour c could have gained
 * a road, so a caller can skip a road search a move cannot have changed. */
TakResult position_judge(const TakPosition *pos, TakColor mover, const bool check_road[2]);

/* The flat-count result, assuming the game ended on flats. */
TakResult position_judge_flats(const TakPosition *pos, TakEnd end);

#endif
