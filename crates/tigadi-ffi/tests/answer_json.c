/*
 * answer_json.c: for tests/probe.rs. Reads position strings (one a line) from
 * standard input, parses each under the rule set of the tablebase opened from
 * argv[1] and argv[2] (tigadi_parse_any_position) and prints what
 * tigadi_answer_root says as the JSON object of `tigadi probe --json` (keys in
 * its order), except that `game_over` is written `true` (the C library gives
 * whether the game is over, not how), and `dtw` from tigadi_dtw_root where the
 * DTW tables are there (absent otherwise, as in the CLI). A line that fails prints
 * {"position": ..., "error": CODE}.
 */
#include <stdio.h>
#include <string.h>

#include "tigadi.h"

static const char *const POINT_NAMES[24] = {
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
};

static const char *wdl(int32_t w) {
    switch (w) {
    case TIGADI_WIN: return "\"win\"";
    case TIGADI_DRAW: return "\"draw\"";
    case TIGADI_LOSS: return "\"loss\"";
    case TIGADI_UNKNOWN: return "null";
    default: return "\"?\"";
    }
}

static const char *category(int32_t c) {
    switch (c) {
    case TIGADI_WIN: return "\"win\"";
    case TIGADI_CURSED_WIN: return "\"cursed-win\"";
    case TIGADI_DRAW: return "\"draw\"";
    case TIGADI_BLESSED_LOSS: return "\"blessed-loss\"";
    case TIGADI_LOSS: return "\"loss\"";
    case TIGADI_UNKNOWN: return "null";
    default: return "\"?\"";
    }
}

/* A DTC as JSON: the number for a win or a loss, null otherwise. */
static void dtc(TigadiValue v) {
    if (v.wdl == TIGADI_WIN || v.wdl == TIGADI_LOSS) {
        printf("%u", (unsigned)v.dtc);
    } else {
        printf("null");
    }
}

static void rule_fields_before_move(TigadiValue value, TigadiRuleValues rule) {
    printf("\"category\":%s,\"dtc\":", category(rule.category));
    dtc(value);
    printf(",\"dtc100\":");
    dtc(rule.dtc100);
}

static void move_text(TigadiMove mv) {
    if (mv.from == TIGADI_NO_POINT && mv.to == TIGADI_NO_POINT) {
        printf("pass");
        return;
    }
    if (mv.from != TIGADI_NO_POINT) printf("%s-", POINT_NAMES[mv.from]);
    printf("%s", POINT_NAMES[mv.to]);
    if (mv.capture != TIGADI_NO_POINT) printf("x%s", POINT_NAMES[mv.capture]);
}

static TigadiAnswerMove moves[TIGADI_MAX_MOVES];
static TigadiValue dtws[TIGADI_MAX_MOVES];

/* The `dtw` key of a DTW (with its leading comma): absent when unknown. */
static void dtw_field(TigadiValue v) {
    if (v.wdl == TIGADI_UNKNOWN) return;
    printf(",\"dtw\":");
    dtc(v);
}

static int answer_one(const TigadiTablebase *tb, const char *text) {
    TigadiPosition position;
    TigadiAnswer answer;
    TigadiValue dtw;
    size_t n = 0, nd = 0, i;
    int32_t code = tigadi_parse_any_position(tb, text, &position);
    if (code == TIGADI_OK) {
        code = tigadi_answer_root(tb, &position, &answer, moves, TIGADI_MAX_MOVES, &n);
    }
    if (code == TIGADI_OK) {
        code = tigadi_dtw_root(tb, &position, &dtw, dtws, TIGADI_MAX_MOVES, &nd);
    }
    if (code == TIGADI_OK && nd != n) {
        code = -100;
    }
    if (code != TIGADI_OK) {
        printf("{\"position\":\"%s\",\"error\":%d}\n", text, code);
        return 1;
    }
    printf("{\"category\":%s,\"dtc\":", category(answer.rule.category));
    if (answer.game_over) {
        printf("null");
    } else {
        dtc(answer.value);
    }
    printf(",\"dtc100\":");
    dtc(answer.rule.dtc100);
    dtw_field(dtw);
    if (answer.game_over) printf(",\"game_over\":true");
    printf(",\"moves\":[");
    for (i = 0; i < n; i++) {
        printf(i ? ",{" : "{");
        rule_fields_before_move(moves[i].value, moves[i].rule);
        dtw_field(dtws[i]);
        printf(",\"move\":\"");
        move_text(moves[i].mv);
        printf("\",\"rule_value\":%s,\"value\":%s}", wdl(moves[i].rule.rule_value),
               wdl(moves[i].value.wdl));
    }
    printf("],\"position\":\"%s\",\"quiet_turns\":%u,\"rule_value\":%s,\"value\":%s}\n", text,
           (unsigned)position.quiet_turns, wdl(answer.rule.rule_value), wdl(answer.value.wdl));
    return 0;
}

int main(int argc, char **argv) {
    TigadiTablebase *tb = NULL;
    char line[256];
    int failed = 0;
    if (argc != 3 || tigadi_open(argv[1], argv[2], &tb) != TIGADI_OK) {
        fprintf(stderr, "usage: %s DIR RULES (a tablebase directory)\n", argv[0]);
        return 2;
    }
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] != '\0') failed |= answer_one(tb, line);
    }
    tigadi_close(tb);
    return failed;
}
