/*
 * probe.c: look positions up in a Tigadi tablebase through the C library.
 *
 *   probe DIR RULES [POSITION ...]
 *
 * DIR is a tablebase directory (as written by `tigadi solve --dir DIR`), RULES a
 * rule set name (tigadi, navakankari, morris, or switches). Positions are moving-
 * phase position strings (docs/RULES.md section 9, read under RULES), from the
 * arguments or, when there are none, one per line from standard input. For each position it prints:
 *
 *   position <string>
 *   wdl <win|draw|loss>                    (tigadi_probe_wdl)
 *   value <win|draw|loss> <dtc>            (tigadi_probe)
 *   best <move>                            (tigadi_best_move; "best none" if blocked)
 *   move <move> <win|draw|loss> <dtc>      (tigadi_probe_root, best first)
 *   legal <move> <move> ...                (tigadi_legal_moves, generation order)
 *
 * or "error <code> <message>" when a call fails. Moves are written as in docs/RULES.md:
 * a1-a4, a1-a4xg7, pass.
 *
 * Build (from the repository root, after `cargo build --release -p tigadi-ffi`):
 *   cc -O2 -Icrates/tigadi-ffi/include examples/c/probe.c \
 *      target/release/libtigadi.a -lpthread -ldl -lm -o probe
 */
#include <stdio.h>
#include <string.h>

#include "tigadi.h"

/* Point names in bit order (docs/INDEX.md section 2). */
static const char *const POINT_NAMES[24] = {
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
};

static const char *wdl_name(int32_t wdl) {
    switch (wdl) {
    case TIGADI_WIN: return "win";
    case TIGADI_DRAW: return "draw";
    case TIGADI_LOSS: return "loss";
    default: return "?";
    }
}

/* Writes a move in docs/RULES.md notation into buf (at least 12 bytes). */
static const char *move_text(TigadiMove mv, char *buf) {
    if (mv.from == TIGADI_NO_POINT) {
        strcpy(buf, "pass");
    } else if (mv.capture == TIGADI_NO_POINT) {
        sprintf(buf, "%s-%s", POINT_NAMES[mv.from], POINT_NAMES[mv.to]);
    } else {
        sprintf(buf, "%s-%sx%s", POINT_NAMES[mv.from], POINT_NAMES[mv.to],
                POINT_NAMES[mv.capture]);
    }
    return buf;
}

static void report(int32_t code) {
    printf("error %d %s\n", code, tigadi_error_message(code));
}

/* Probes one position string; returns 0 on success, 1 on an error. */
static int probe_one(const TigadiTablebase *tb, const char *text) {
    static TigadiRootMove root[TIGADI_MAX_MOVES];
    static TigadiMove legal[TIGADI_MAX_MOVES];
    uint32_t bone, seed, side;
    int32_t wdl, code;
    TigadiValue value;
    TigadiMove best;
    size_t n, i;
    char buf[16];

    printf("position %s\n", text);
    code = tigadi_parse_position(tb, text, &bone, &seed, &side);
    if (code == TIGADI_OK) code = tigadi_probe_wdl(tb, bone, seed, side, &wdl);
    if (code == TIGADI_OK) code = tigadi_probe(tb, bone, seed, side, &value);
    if (code != TIGADI_OK) {
        report(code);
        return 1;
    }
    printf("wdl %s\n", wdl_name(wdl));
    printf("value %s %u\n", wdl_name(value.wdl), (unsigned)value.dtc);

    code = tigadi_best_move(tb, bone, seed, side, &best, NULL);
    if (code == TIGADI_ERR_NO_MOVE) {
        printf("best none\n");
    } else if (code != TIGADI_OK) {
        report(code);
        return 1;
    } else {
        printf("best %s\n", move_text(best, buf));
    }

    code = tigadi_probe_root(tb, bone, seed, side, root, TIGADI_MAX_MOVES, &n);
    if (code != TIGADI_OK) {
        report(code);
        return 1;
    }
    for (i = 0; i < n; i++) {
        printf("move %s %s %u\n", move_text(root[i].mv, buf),
               wdl_name(root[i].value.wdl), (unsigned)root[i].value.dtc);
    }

    code = tigadi_legal_moves(tb, bone, seed, side, legal, TIGADI_MAX_MOVES, &n);
    if (code != TIGADI_OK) {
        report(code);
        return 1;
    }
    printf("legal");
    for (i = 0; i < n; i++) printf(" %s", move_text(legal[i], buf));
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    TigadiTablebase *tb = NULL;
    char line[256];
    int32_t code;
    int failed = 0, i;

    if (argc < 3) {
        fprintf(stderr, "usage: %s DIR RULES [POSITION ...]\n", argv[0]);
        return 2;
    }
    code = tigadi_open(argv[1], argv[2], &tb);
    if (code != TIGADI_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], tigadi_error_message(code));
        return 2;
    }
    if (argc > 3) {
        for (i = 3; i < argc; i++) failed |= probe_one(tb, argv[i]);
    } else {
        while (fgets(line, sizeof line, stdin)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (line[0] != '\0') failed |= probe_one(tb, line);
        }
    }
    tigadi_close(tb);
    return failed;
}
