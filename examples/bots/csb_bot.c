/* A Coders Strike Back bot as written for the contest, in C: it reads the
 * referee's lines on stdin and writes one command per pod on stdout, and
 * knows nothing of the sandbox. Both pods race: each aims at its next
 * checkpoint corrected for its drift (3 turns of its velocity), thrusts
 * full unless the target is behind it or it would orbit the checkpoint,
 * and boosts once on the longest leg.
 *
 *   cc -O2 -o csb_bot csb_bot.c -lm
 *
 * Run it in the sandbox with the "codingame-csb" protocol
 * (docs/bots-codingame.md). */
#include <math.h>
#include <stdio.h>

#define PI 3.14159265358979323846

int main(void) {
    int laps, count, cx[8], cy[8];
    if (scanf("%d %d", &laps, &count) != 2 || count < 2 || count > 8) return 1;
    for (int i = 0; i < count; i++) {
        if (scanf("%d %d", &cx[i], &cy[i]) != 2) return 1;
    }
    int boost_cp = 0;
    double longest = -1;
    for (int i = 0; i < count; i++) {
        const int j = (i + count - 1) % count;
        const double len = hypot(cx[i] - cx[j], cy[i] - cy[j]);
        if (len > longest) {
            longest = len;
            boost_cp = i;
        }
    }
    int boosted[2] = {0, 0};
    for (int turn = 0;; turn++) {
        int p[4][6];
        for (int k = 0; k < 4; k++) {
            if (scanf("%d %d %d %d %d %d", &p[k][0], &p[k][1], &p[k][2], &p[k][3], &p[k][4],
                      &p[k][5]) != 6) {
                return 0; /* the match is over */
            }
        }
        for (int i = 0; i < 2; i++) {
            const int x = p[i][0], y = p[i][1], vx = p[i][2], vy = p[i][3];
            const int angle = p[i][4], next = p[i][5];
            const double tx = cx[next] - 3.0 * vx, ty = cy[next] - 3.0 * vy;
            const double want = atan2(ty - y, tx - x) * 180.0 / PI;
            const double heading = angle == -1 ? want : angle; /* -1: the first turn */
            double diff = fmod(want - heading + 540.0, 360.0) - 180.0;
            const double dist = hypot(cx[next] - x, cy[next] - y);
            const double speed = hypot(vx, vy);
            int thrust = 200;
            if (fabs(diff) > 90 || (fabs(diff) > 18 && dist < 8 * speed)) thrust = 0;
            if (!boosted[i] && turn > 0 && next == boost_cp && fabs(diff) < 10 && dist > 4000) {
                boosted[i] = 1;
                printf("%d %d BOOST\n", (int)lround(tx), (int)lround(ty));
            } else {
                printf("%d %d %d\n", (int)lround(tx), (int)lround(ty), thrust);
            }
        }
        fflush(stdout);
    }
}
