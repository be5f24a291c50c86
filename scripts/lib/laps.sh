# Lap times of a long script, for the table `.ci/run` prints at its end (CI shows a log's tail,
# so that is where a slow step can be seen). Sourced; a no-op unless LIVERY_LAPS names a file.
#
#   lap NAME    adds "NAME  N s" to $LIVERY_LAPS: the seconds since the previous lap (or since
#               the script started), so each step is named once, after it ran.
lap() {
    [ -n "${LIVERY_LAPS:-}" ] || return 0
    printf '%-44s %5d s\n' "$1" $((SECONDS - ${livery_lap_start:-0})) >>"$LIVERY_LAPS"
    livery_lap_start=$SECONDS
}
