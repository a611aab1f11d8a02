/* The shortest-solution search (A*) of solver/search.py, its inner loop written in C.
 *
 * It searches exactly as search.shortest_win does in Python, for the rule sets it takes
 * (search._c_search_fits: no limit on waste uses, not both a drawn spot and a usable
 * stock top, one waste pile or several with several cards a draw, at most MAX_SLOTS layout places and
 * a packed state that fits in 64 bits (free cells: the wide build, below): every preset but limited_waste, and thirteen's jokers
 * and triples; any number of cards a draw, a draw moving the pointer as board.dealt_to does, and with
 * several cards a draw or triples the bound counting the removal steps only, as StepsBound.bound
 * does, with a joker left each joker standing in for a stock card): the same successors in the same
 * order (SearchSpace._successors, its jokers' and triples' moves included), the same bound (steps.StepsBound.bound: its pyramid steps per shape,
 * and its sweeps computed afresh instead of memoised, as they are pure functions of the cards), the
 * same cut (SearchSpace.hopeless: the relaxed game of relaxed.RelaxedGame, with its ceiling and its
 * memo of bounds, whose answers are exact; jokers are its bag's value 0), and the same order of the
 * positions to expand (f, then more steps first, then first pushed), so it expands the same positions
 * in the same order and finds the same line.  What depends on the rules (a shape's pyramid-only
 * removals, its exposed cards, by the value they need too) is asked of SearchSpace.shape once per
 * shape; with triples, and in strict rules with one usable stock-side card, SearchSpace.hopeless
 * itself is asked (the relaxed game with triples, the starved-stock cut: search._c_relaxed).
 * Positions live in C arrays and open hash tables instead of Python integers and dictionaries.
 *
 * search.py uses it when the package runs compiled and the build made it (build_native.py); otherwise
 * the Python loop runs, with the same results.  tests/solver/test_shortest.py compares the two.
 *
 * Free cells: the same source compiled with WIDE defined (_astar_wide.c, module _astar_wide) keeps
 * positions of 128 bits (state_t below), the parked places in the upper half, and plays the moves of
 * cells.CellGame (its successors, after_park, park_leads) and StepsBound.bound with cells (the
 * pyramid's steps asked of SearchSpace.pyramid_steps per pyramid and parked places, the sweeps and
 * sweeps.StockSweeps.together), asking SearchSpace.hopeless (and, in the verdict's win_or_best,
 * SearchSpace.reach_now) for the relaxed game with cells and keeping the answers; the rule sets with
 * cells and the classic stock side (search._c_cells_fit).  Its verdict loop is the same one, over
 * 128-bit positions (search._c_verdict_fits: not in strict rules with one usable stock-side card).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PTR_BITS 6
#define PTR_MASK ((1ULL << PTR_BITS) - 1)
#define MAX_VALUE 16
#define MAX_TARGET 64
#define MAX_SLOTS 64 /* layout places (pyramid and reserve): a position's low bits, masks of 64 bits */
#define MAX_PILES 8  /* waste piles the C loops take (Packing.pile_masks) */
#define MAX_USABLE (MAX_PILES + 2) /* usable stock-side cards: the drawn card, the piles' tops, the stock's top */
#define MAX_JOKERS 2 /* the most jokers a rule set deals (Rules checks 0 to 2) */
/* successors besides the pyramid-only removals: a removal per usable card and pyramid slot, a pair per
 * two usable cards, a joker with each exposed or usable card, a draw or a recycle */
#define STOCK_STEPS                                                                                         \
    (MAX_USABLE * MAX_SLOTS + MAX_USABLE * MAX_USABLE / 2 + MAX_JOKERS * (MAX_SLOTS + MAX_USABLE) +         \
     TRIPLE_STEPS + 2)
/* triples with stock-side cards: one usable card with two exposed ones, two usable cards with one, three
 * usable cards */
#define TRIPLE_STEPS                                                                                        \
    (MAX_USABLE * MAX_SLOTS * (MAX_SLOTS - 1) / 2 + MAX_USABLE * MAX_USABLE / 2 * MAX_SLOTS + 1)
#define UNREACHABLE (1 << 20)
#define MAX_CELLS 4 /* Rules.cells at most (rules.MAX_CELLS) */
/* a park's moves in the wide build: a parked card with an exposed, the usable or another parked card */
#define CELL_STEPS (MAX_CELLS * (MAX_SLOTS + MAX_USABLE + MAX_CELLS) + MAX_SLOTS + MAX_USABLE)

/* A position as the shortest search keeps it.  The narrow build (module _astar) holds a packed state
 * of 64 bits as search.py packs it.  The wide build (module _astar_wide, the same source compiled with
 * WIDE defined) takes free cells: the low 64 bits hold the state below Packing.cell_shift (pyramid,
 * stock, pointer, recycles), the high 64 bits the parked places (the state from cell_shift up, a bit
 * per layout place) and, at their top bit (PARK_FLAG), the mark of search._python_shortest's keys:
 * the position was reached by a park, so only the moves CellGame.after_park keeps follow. */
#ifdef WIDE
typedef unsigned __int128 state_t;
#define PARK_FLAG (1ULL << 63)
static inline uint64_t low_of(state_t s) { return (uint64_t)s; }
static inline uint64_t cells_of(state_t s) { return (uint64_t)(s >> 64) & ~PARK_FLAG; }
static inline state_t make_state(uint64_t low, uint64_t cells) { return (state_t)cells << 64 | low; }
#else
typedef uint64_t state_t;
#endif
#define EMPTY_STATE (~(state_t)0)

/* --- what one pyramid shape needs: its moves (from SearchSpace.shape) and its removal steps ------ */

typedef struct {
    uint64_t pyramid;
    uint64_t exposed_mask;      /* the exposed slots, a bit each */
    int king;                   /* the slot of an exposed king (the only move), or -1 */
    int n_removals;
    uint64_t *removals;         /* the pyramid mask after each pyramid-only removal */
    uint8_t need_count[MAX_TARGET];
    uint8_t need_slots[MAX_TARGET][MAX_SLOTS];
    int n_exposed;              /* PyramidShape.exposed: a joker takes any of them */
    uint8_t exposed[MAX_SLOTS];
    /* as needs.PyramidSteps: */
    int total;
    int n_deficits;
    int def_value[MAX_VALUE];   /* its deficits, in their order */
    int def_count[MAX_VALUE];
    int wanted[MAX_VALUE];      /* the deficits by value (0: none) */
    int free_[MAX_TARGET];
    int cap[MAX_TARGET];
    int width;                  /* len(free) */
    int def_index[MAX_VALUE];   /* by value: its place among the deficits */
    uint8_t dig[MAX_VALUE][MAX_TARGET]; /* per deficit, needs.PyramidSteps.dig */
    uint8_t partners[MAX_TARGET];       /* needs.PyramidSteps.partners */
    uint32_t last_partners; /* by value: the partners of StepsBound._last_pass's candidates (0: none) */
} Shape;

typedef struct {
    Shape **slots;
    size_t size; /* a power of two */
    size_t count;
} ShapeMap;

/* The wide build's steps per (pyramid, parked places): the keys kept beside the pointers, so that a
 * lookup reads one row and not the (large) Shape of every row it passes. */
typedef struct {
    uint64_t pyramid, cells;
    Shape *shape; /* NULL: an empty row */
} NeedsRow;

typedef struct {
    NeedsRow *rows;
    size_t size; /* a power of two */
    size_t count;
} NeedsMap;

/* --- the map of states reached: state -> (parent, steps) ---------------------------------------- */

/* A row is 16 bytes, not 24: the parent is the index of its expansion in ``expanded`` (each position
 * expanded, in order), not the parent's 64-bit state. The table is most of the search's memory, and
 * the kernel zeroes every page of it as it doubles: SR1-R-AAAAAAV (six_rows) spent a quarter of its
 * time there with 24-byte rows (docs/performance.md). */
#define NO_PARENT UINT32_MAX

/* Packed: in the wide build a row is then 24 bytes, not the 32 that a 128-bit key's alignment would
 * make it (the narrow build's 16 are the same either way). */
typedef struct __attribute__((packed)) {
    state_t key;     /* ~state: 0 is an empty row (see reached_init) */
    uint32_t parent; /* index in ReachedMap.expanded, or NO_PARENT for the start */
    uint32_t g;
} Reached;

typedef struct {
    Reached *rows;
    size_t size;
    size_t count;
    state_t *expanded; /* the states expanded, in order (a state expanded again appears again) */
    size_t n_expanded, room_expanded;
} ReachedMap;

/* The open list: a queue of states for each (f, steps) pair, taken lowest f first, then most steps,
 * then first in -- the order of search.shortest_win's heap (f, then more steps, then first pushed). */
typedef struct {
    state_t *items;
    size_t head, count, size;
} Queue;

typedef struct {
    Queue *queues; /* [f * ng + g] */
    size_t *in_f;  /* entries per f */
    int *top;      /* per f: the most steps whose queue may hold entries, or -1 */
    int nf, ng;
    int low;       /* the lowest f that may hold entries */
    size_t total;
} Buckets;

/* --- the relaxed game's memo: (bag, pyramid) -> what it is known to reach, what it could ---------- */

typedef struct {
    uint64_t counts;
    uint64_t pyramid;
    uint8_t low, high, used;
} Bound;

typedef struct {
    Bound *rows;
    size_t size;
    size_t count;
} Bounds;

typedef struct {
    int P, S;
    int values[128];
    int target, lone;
    int strict, stock_top_usable, drawn_spot, pairs_ok, unlimited, max_recycles, min_recycles;
    int draw_count;   /* cards a draw (Packing.draw_count) */
    int king_at_once; /* SearchSpace.king_at_once: the verdict takes a usable stock-side king at once */
    int last_pass_root; /* StepsBound.last_pass_root */
    int n_piles;      /* several waste piles (Apophis): each pile's top is usable (Packing.pile_masks) */
    uint64_t pile_masks[MAX_PILES];
    int stock_shift, ptr_shift, rec_shift;
    int rec_bits;      /* Packing.rec_bits: the recycle count's width, as the rule set's limit needs */
    uint64_t rec_mask; /* (1 << rec_bits) - 1 */
    int triples;       /* three cards may go together (thirteen's option) */
    int jokers;        /* jokers in the deal (thirteen's option), each a bit of the state from jok_shift */
    int jok_shift;
    uint64_t jok_mask; /* (1 << jokers) - 1 */
    uint64_t pyramid_full, stock_mask;
    uint64_t meeting[MAX_SLOTS]; /* SearchSpace.dead_masks, their pyramid part */
    /* the relaxed game in C (see below), or -1: SearchSpace.hopeless is asked instead */
    int relaxed;
    uint64_t kept_by[MAX_SLOTS];
    uint64_t slots_of[MAX_VALUE];
    int n_pairs_only;
    int pairs_only[MAX_VALUE][2];
    PyObject *poll_fn;
    Bounds bounds;
    PyObject *shape_fn, *hopeless_fn, *tick_fn;
    ShapeMap shapes;
    /* free cells (the wide build): how many, where the parked places start in search.py's state,
     * whether a park is followed only by a move that needs it (CellGame.parks_then_use) */
    int cells, cell_shift, parks_then_use;
    int alike; /* the shortest search keys its positions by Packing.alike (search._alike) */
    /* SearchSpace.pyramid_steps (the bound's steps with cells, per pyramid and parked places) and
     * whether Table.useful_park finds a park worth making (CellGame.successors' last resort) */
    PyObject *needs_fn, *useful_park_fn, *reach_fn, *hopeless_held_fn;
    NeedsMap needs;
    int prefix_draws; /* SearchSpace.prefix_draws: positions taken after a recycle are raised to draws_bound */
} Space;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline int bit_length(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

static inline uint64_t mix_state(state_t s) {
#ifdef WIDE
    return mix((uint64_t)s ^ mix((uint64_t)(s >> 64) + 0x9e3779b97f4a7c15ULL));
#else
    return mix(s);
#endif
}

/* --- reached map ------------------------------------------------------------------------------- */

/* A large table's pages are asked for all at once, writable (Linux 5.14's MADV_POPULATE_WRITE; where
 * the kernel or the headers lack it nothing happens). Page by page, a probe that misses reads a row of
 * an untouched page first, which maps the shared zero page, and the write that follows faults again to
 * copy it; a doubled table takes in every row of the old one at once (three eighths full: dozens of rows
 * on every page), so every page is written anyway.
 * No compaction, unlike huge pages: FC1-R-AAAAAAD's system time 0.34 -> 0.28 s, the regression set of
 * slow deals 0.96 of its CPU (docs/performance.md). */
static void populate(void *start, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
    if (bytes < ((size_t)4 << 20)) return;
    long size = sysconf(_SC_PAGESIZE);
    uintptr_t page = size > 0 ? (uintptr_t)size : 4096;
    uintptr_t from = ((uintptr_t)start + page - 1) & ~(page - 1);
    uintptr_t to = ((uintptr_t)start + bytes) & ~(page - 1);
    if (to > from) (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
    (void)start;
    (void)bytes;
#endif
}

/* The table starts from calloc's memory, which for a table of any size is fresh pages from the
 * kernel, already zero: a row holds ~state, so that zero is the empty row (no state is all ones, as
 * EMPTY_STATE says) and no pass writes the empty rows first. (Huge pages were asked for with madvise until
 * 2026-12: with the kernel's defrag set to madvise, each fault then compacted memory on the spot, a
 * tenth to a third of a second of system time on SR1-R-AAAAAAV, varying with the machine's memory,
 * for a few per cent of user time; docs/performance.md.) */
static int reached_init(ReachedMap *m, size_t size) {
    m->rows = calloc(size, sizeof(Reached));
    if (!m->rows) return -1;
    populate(m->rows, size * sizeof(Reached));
    m->size = size;
    return 0;
}

static Reached *reached_find(ReachedMap *m, state_t state) {
    size_t mask = m->size - 1;
    size_t i = mix_state(state) & mask;
    state_t key = ~state;
    for (;;) {
        Reached *row = &m->rows[i];
        if (row->key == key) return row;
        if (!row->key) return NULL;
        i = (i + 1) & mask;
    }
}

static int reached_grow(ReachedMap *m) {
    ReachedMap bigger = {0};
    if (reached_init(&bigger, m->size * 2) < 0) return -1;
    size_t mask = bigger.size - 1;
    for (size_t j = 0; j < m->size; j++) {
        if (!m->rows[j].key) continue;
        size_t i = mix_state(~m->rows[j].key) & mask;
        while (bigger.rows[i].key) i = (i + 1) & mask;
        bigger.rows[i] = m->rows[j];
    }
    free(m->rows);
    m->rows = bigger.rows;
    m->size = bigger.size;
    return 0;
}

/* Set state's row (a new one, or the one found); -1 when out of memory. */
static int reached_set(ReachedMap *m, state_t state, uint32_t parent, uint32_t g) {
    if ((m->count + 1) * 4 > m->size * 3 && reached_grow(m) < 0) return -1;
    size_t mask = m->size - 1;
    size_t i = mix_state(state) & mask;
    state_t key = ~state;
    while (m->rows[i].key && m->rows[i].key != key) i = (i + 1) & mask;
    if (!m->rows[i].key) m->count++;
    m->rows[i].key = key;
    m->rows[i].parent = parent;
    m->rows[i].g = g;
    return 0;
}

/* Append an expanded state; its index is the parent of the positions it reaches. -1 when out of
 * memory (or past the 32-bit index). */
static int reached_expand(ReachedMap *m, state_t state, uint32_t *index) {
    if (m->n_expanded == m->room_expanded) {
        size_t room = m->room_expanded ? m->room_expanded * 2 : 1 << 12;
        if (room > NO_PARENT) return -1;
        state_t *more = realloc(m->expanded, room * sizeof(state_t));
        if (!more) return -1;
        m->expanded = more;
        m->room_expanded = room;
    }
    *index = (uint32_t)m->n_expanded;
    m->expanded[m->n_expanded++] = state;
    return 0;
}

/* The parent of a reached state (not the start). */
static inline state_t reached_parent(ReachedMap *m, state_t state) {
    return m->expanded[reached_find(m, state)->parent];
}

/* --- the open list ------------------------------------------------------------------------------ */

static int buckets_grow(Buckets *b, int nf, int ng) {
    Queue *queues = calloc((size_t)nf * (size_t)ng, sizeof(Queue));
    size_t *in_f = calloc((size_t)nf, sizeof(size_t));
    int *top = malloc((size_t)nf * sizeof(int));
    if (!queues || !in_f || !top) {
        free(queues);
        free(in_f);
        free(top);
        return -1;
    }
    for (int f = 0; f < nf; f++) top[f] = -1;
    for (int f = 0; f < b->nf; f++) {
        for (int g = 0; g < b->ng; g++) queues[(size_t)f * ng + g] = b->queues[(size_t)f * b->ng + g];
        in_f[f] = b->in_f[f];
        top[f] = b->top[f];
    }
    free(b->queues);
    free(b->in_f);
    free(b->top);
    b->queues = queues;
    b->in_f = in_f;
    b->top = top;
    b->nf = nf;
    b->ng = ng;
    return 0;
}

static int buckets_push(Buckets *b, int f, int g, state_t state) {
    if (f >= b->nf || g >= b->ng) {
        int nf = f >= b->nf ? (f + 1 > 2 * b->nf ? f + 1 : 2 * b->nf) : b->nf;
        int ng = g >= b->ng ? (g + 1 > 2 * b->ng ? g + 1 : 2 * b->ng) : b->ng;
        if (buckets_grow(b, nf, ng) < 0) return -1;
    }
    Queue *q = &b->queues[(size_t)f * b->ng + g];
    if (q->count == q->size) {
        size_t size = q->size ? 2 * q->size : 16;
        state_t *items = realloc(q->items, size * sizeof(state_t));
        if (!items) return -1;
        q->items = items;
        q->size = size;
    }
    q->items[q->count++] = state;
    b->in_f[f]++;
    b->total++;
    if (f < b->low) b->low = f;
    if (g > b->top[f]) b->top[f] = g;
    return 0;
}

/* Take the first state (b->total > 0), with its f and steps. */
static state_t buckets_pop(Buckets *b, int *f_out, int *g_out) {
    while (!b->in_f[b->low]) b->low++;
    int f = b->low, g = b->top[f];
    Queue *q = &b->queues[(size_t)f * b->ng + g];
    while (q->head == q->count) {
        g--;
        q = &b->queues[(size_t)f * b->ng + g];
    }
    b->top[f] = g;
    state_t state = q->items[q->head++];
    if (q->head == q->count) q->head = q->count = 0;
    b->in_f[f]--;
    b->total--;
    *f_out = f;
    *g_out = g;
    return state;
}

/* The state buckets_pop would take next if it is in the same queue as the one just taken (most often
 * it is), else EMPTY_STATE: its reached row is asked of memory while this one is expanded. */
static inline state_t buckets_next(const Buckets *b) {
    if (!b->total || !b->in_f[b->low] || b->top[b->low] < 0) return EMPTY_STATE;
    const Queue *q = &b->queues[(size_t)b->low * b->ng + b->top[b->low]];
    return q->head < q->count ? q->items[q->head] : EMPTY_STATE;
}

static void buckets_free(Buckets *b) {
    if (b->queues)
        for (size_t i = 0; i < (size_t)b->nf * (size_t)b->ng; i++) free(b->queues[i].items);
    free(b->queues);
    free(b->in_f);
    free(b->top);
}

/* --- the relaxed game's memo ------------------------------------------------------------------- */

static int bounds_init(Bounds *m, size_t size) {
    m->rows = calloc(size, sizeof(Bound));
    if (!m->rows) return -1;
    m->size = size;
    m->count = 0;
    return 0;
}

static inline size_t bound_slot(const Bounds *m, uint64_t counts, uint64_t pyramid) {
    size_t mask = m->size - 1;
    size_t i = mix(counts ^ (pyramid * 0x9e3779b97f4a7c15ULL)) & mask;
    while (m->rows[i].used && (m->rows[i].counts != counts || m->rows[i].pyramid != pyramid)) i = (i + 1) & mask;
    return i;
}

/* The row of (counts, pyramid), added unused if new (NULL when out of memory). */
static Bound *bounds_row(Bounds *m, uint64_t counts, uint64_t pyramid) {
    if ((m->count + 1) * 2 > m->size) {
        Bounds bigger;
        if (bounds_init(&bigger, m->size * 2) < 0) return NULL;
        for (size_t j = 0; j < m->size; j++) {
            if (!m->rows[j].used) continue;
            bigger.rows[bound_slot(&bigger, m->rows[j].counts, m->rows[j].pyramid)] = m->rows[j];
        }
        bigger.count = m->count;
        free(m->rows);
        *m = bigger;
    }
    Bound *row = &m->rows[bound_slot(m, counts, pyramid)];
    if (!row->used) {
        row->counts = counts;
        row->pyramid = pyramid;
        m->count++;
    }
    return row;
}

/* --- shapes ------------------------------------------------------------------------------------ */

static void shape_free(Shape *s) {
    if (!s) return;
    free(s->removals);
    free(s);
}

static void shapes_clear(ShapeMap *m) {
    for (size_t i = 0; i < m->size; i++) shape_free(m->slots[i]);
    free(m->slots);
    m->slots = NULL;
    m->size = m->count = 0;
}

static int shapes_insert(ShapeMap *m, Shape *s) {
    if ((m->count + 1) * 2 > m->size) {
        size_t size = m->size ? m->size * 2 : 1024;
        Shape **slots = calloc(size, sizeof(Shape *));
        if (!slots) return -1;
        for (size_t j = 0; j < m->size; j++) {
            Shape *old = m->slots[j];
            if (!old) continue;
            size_t i = mix(old->pyramid) & (size - 1);
            while (slots[i]) i = (i + 1) & (size - 1);
            slots[i] = old;
        }
        free(m->slots);
        m->slots = slots;
        m->size = size;
    }
    size_t i = mix(s->pyramid) & (m->size - 1);
    while (m->slots[i]) i = (i + 1) & (m->size - 1);
    m->slots[i] = s;
    m->count++;
    return 0;
}

static long as_long(PyObject *o, int *bad) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) *bad = 1;
    return v;
}

/* Kuhn's augmenting path from pyramid slot a to a partner among highs (a mask of slots). */
static int augment(const Space *sp, int a, uint64_t highs, int *holder, uint64_t *tried) {
    uint64_t rest = sp->meeting[a] & highs & ~*tried;
    while (rest) {
        int b = __builtin_ctzll(rest);
        rest &= rest - 1;
        *tried |= 1ULL << b;
        if (holder[b] < 0 || augment(sp, holder[b], highs, holder, tried)) {
            holder[b] = a;
            return 1;
        }
    }
    return 0;
}

/* The most disjoint pairs of a slot of lows with one of highs that can meet (needs.PyramidNeeds._matching). */
static int matching(const Space *sp, uint64_t lows, uint64_t highs) {
    int holder[MAX_SLOTS];
    for (int i = 0; i < MAX_SLOTS; i++) holder[i] = -1;
    int size = 0;
    while (lows) {
        int a = __builtin_ctzll(lows);
        lows &= lows - 1;
        uint64_t tried = 0;
        size += augment(sp, a, highs, holder, &tried);
    }
    return size;
}

/* needs.PyramidNeeds.steps (see there): the removal steps the pyramid needs at least, the stock
 * cards it must use by value (deficits), and the free and cap counts of the sweeps. */
static void pyramid_steps(const Space *sp, uint64_t pyramid, Shape *s) {
    int target = sp->target;
    int counts[2 * MAX_TARGET] = {0};
    uint64_t slots_of[2 * MAX_TARGET] = {0};
    for (uint64_t rest = pyramid; rest; rest &= rest - 1) {
        int slot = __builtin_ctzll(rest);
        counts[sp->values[slot]]++;
        slots_of[sp->values[slot]] |= 1ULL << slot;
    }
    int total = sp->lone == target ? counts[target] : 0;
    s->width = target + 1;
    for (int u = 1; u < target; u++) s->partners[u] = (uint8_t)counts[target - u];

    for (int value = 1; value <= target / 2; value++) {
        int other = target - value;
        if (other == value) {
            total += (counts[value] + 1) / 2;
            if (counts[value] % 2) {
                s->def_value[s->n_deficits] = value;
                s->def_count[s->n_deficits++] = 1;
                s->wanted[value] = 1;
                s->free_[value] = 1;
            }
            s->cap[value] = counts[value] / 2;
            continue;
        }
        int matched = matching(sp, slots_of[value], slots_of[other]);
        total += counts[value] + counts[other] - matched;
        s->cap[value] = s->cap[other] = matched;
        int pairs[2][2] = {{other, value}, {value, other}};
        for (int k = 0; k < 2; k++) {
            int scarce = pairs[k][0], plenty = pairs[k][1];
            if (counts[plenty] > matched) {
                int deficit = counts[plenty] - matched;
                s->def_value[s->n_deficits] = scarce;
                s->def_count[s->n_deficits++] = deficit;
                s->wanted[scarce] = deficit;
                s->free_[scarce] = deficit;
            }
        }
    }
    s->total = total;
    /* StepsBound._candidates_partners: the cards no other card lies under but lone kings */
    s->last_partners = 0;
    {
        int candidates[MAX_TARGET] = {0}, ok = 1;
        for (uint64_t rest = pyramid; rest && ok; rest &= rest - 1) {
            int slot = __builtin_ctzll(rest);
            int value = sp->values[slot];
            if (value == sp->lone) continue;
            uint64_t under = sp->kept_by[slot] & pyramid & ~(1ULL << slot);
            for (; under; under &= under - 1)
                if (sp->values[__builtin_ctzll(under)] != sp->lone) break;
            if (under) continue;
            if (!(0 < value && value < target)) ok = 0;
            else candidates[value]++;
        }
        for (int value = 1; value < target && ok; value++) {
            if (!candidates[value]) continue;
            int other = target - value;
            if (other == value ? candidates[value] > 1 : candidates[other] > 0) ok = 0;
            s->last_partners |= 1u << other;
        }
        if (!ok) s->last_partners = 0;
    }
    /* needs.PyramidSteps.dig: per deficit w, the pyramid cards of each partner value lying under none
     * of those that want w */
    for (int i = 0; i < s->n_deficits; i++) {
        int value = s->def_value[i];
        s->def_index[value] = i;
        uint64_t under = pyramid;
        for (uint64_t rest = slots_of[target - value]; rest; rest &= rest - 1)
            under &= sp->kept_by[__builtin_ctzll(rest)] & ~(rest & -rest);
        for (int u = 1; u < target; u++) s->dig[i][u] = (uint8_t)__builtin_popcountll(slots_of[target - u] & ~under);
    }
}

/* An empty Shape of ``pyramid`` (no king), or NULL with MemoryError set. */
static Shape *shape_new(uint64_t pyramid) {
    Shape *s = calloc(1, sizeof(Shape));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    s->pyramid = pyramid;
    s->king = -1;
    return s;
}

/* Read SearchSpace.shape(pyramid) into a Shape, and work out its removal steps. */
static Shape *shape_build(Space *sp, uint64_t pyramid) {
    Shape *s = shape_new(pyramid);
    if (!s) return NULL;
    int bad = 0;
    PyObject *key = PyLong_FromUnsignedLongLong(pyramid);
    PyObject *shape = key ? PyObject_CallOneArg(sp->shape_fn, key) : NULL;
    PyObject *removals = NULL, *king = NULL, *by_need = NULL, *exposed = NULL;
    Py_XDECREF(key);
    if (!shape) goto fail;
    removals = PyObject_GetAttrString(shape, "removals");
    king = PyObject_GetAttrString(shape, "king");
    by_need = PyObject_GetAttrString(shape, "by_need");
    exposed = PyObject_GetAttrString(shape, "exposed");
    if (!removals || !king || !by_need || !exposed || !PyTuple_Check(removals) || !PyDict_Check(by_need) ||
        !PyTuple_Check(exposed) || PyTuple_GET_SIZE(exposed) > MAX_SLOTS)
        goto fail_type;
    s->n_exposed = (int)PyTuple_GET_SIZE(exposed);
    for (int j = 0; j < s->n_exposed; j++) {
        s->exposed[j] = (uint8_t)as_long(PyTuple_GET_ITEM(exposed, j), &bad);
        s->exposed_mask |= 1ULL << s->exposed[j];
    }
    if (king != Py_None) {
        if (!PyTuple_Check(king) || PyTuple_GET_SIZE(king) != 1) goto fail_type;
        s->king = (int)as_long(PyTuple_GET_ITEM(king, 0), &bad);
    }
    s->n_removals = (int)PyTuple_GET_SIZE(removals);
    s->removals = malloc((s->n_removals ? s->n_removals : 1) * sizeof(uint64_t));
    if (!s->removals) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int i = 0; i < s->n_removals; i++) {
        PyObject *pair = PyTuple_GET_ITEM(removals, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) goto fail_type;
        s->removals[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(pair, 1));
        if (PyErr_Occurred()) goto fail;
    }
    {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(by_need, &pos, &k, &v)) {
            long need = as_long(k, &bad);
            if (bad) goto fail;
            if (need < 0 || need >= MAX_TARGET) continue; /* never asked: no stock card has that value */
            if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) > MAX_SLOTS) goto fail_type;
            s->need_count[need] = (uint8_t)PyTuple_GET_SIZE(v);
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(v); j++)
                s->need_slots[need][j] = (uint8_t)as_long(PyTuple_GET_ITEM(v, j), &bad);
        }
    }
    pyramid_steps(sp, pyramid, s);
    if (bad) goto fail;
    Py_DECREF(shape);
    Py_DECREF(removals);
    Py_DECREF(king);
    Py_DECREF(by_need);
    Py_DECREF(exposed);
    return s;
fail_type:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_astar: unexpected shape or steps");
fail:
    Py_XDECREF(shape);
    Py_XDECREF(removals);
    Py_XDECREF(king);
    Py_XDECREF(by_need);
    Py_XDECREF(exposed);
    shape_free(s);
    return NULL;
}

static Shape *shape_of(Space *sp, uint64_t pyramid) {
    ShapeMap *m = &sp->shapes;
    if (m->size) {
        size_t i = mix(pyramid) & (m->size - 1);
        while (m->slots[i]) {
            if (m->slots[i]->pyramid == pyramid) return m->slots[i];
            i = (i + 1) & (m->size - 1);
        }
    }
    Shape *s = shape_build(sp, pyramid);
    if (!s) return NULL;
    if (shapes_insert(m, s) < 0) {
        shape_free(s);
        PyErr_NoMemory();
        return NULL;
    }
    return s;
}

/* --- successors (SearchSpace._successors with shortest=True) ------------------------------------ */

static inline uint64_t settle(const Space *sp, uint64_t state) {
    if (sp->drawn_spot) return state; /* Packing.settle: the drawn spot keeps its place */
    uint64_t ptr = state >> sp->ptr_shift & PTR_MASK;
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    uint64_t settled = (uint64_t)bit_length(stock & ((1ULL << ptr) - 1));
    if (settled == ptr) return state;
    return (state & ~(PTR_MASK << sp->ptr_shift)) | settled << sp->ptr_shift;
}

typedef struct {
    state_t after;
    int removal;
#ifdef WIDE
    int park;       /* a park (the place parked is ``taken``) */
    uint64_t taken; /* the layout places the move takes (a bit each) */
#endif
} Step;

/* board.dealt_to (Packing.dealt_after): the stock pointer after one draw of draw_count cards from ptr,
 * just past the draw_count-th card still in the stock, or past the last one if fewer are left (``above``,
 * the stock from ptr on, is not empty). */
static inline uint64_t dealt_to(const Space *sp, uint64_t above, uint64_t ptr) {
    for (int i = 1; i < sp->draw_count && (above & (above - 1)); i++) above &= above - 1;
    return ptr + (uint64_t)__builtin_ctzll(above) + 1;
}

/* SearchSpace._triple_moves: three cards summing to the target, at least one from the stock side (the
 * pyramid-only triples are among the shape's removals), in its order; the count written to out. */
static int triple_moves(const Space *sp, uint64_t state, const Shape *shape, const int *usable, int n_usable,
                        Step *out) {
    int count = 0, P = sp->P, target = sp->target;
    for (int u = 0; u < n_usable; u++) {
        int place = P + usable[u];
        int need = target - sp->values[place];
        for (int i = 0; i < shape->n_exposed; i++)
            for (int j = i + 1; j < shape->n_exposed; j++) {
                int a = shape->exposed[i], b = shape->exposed[j];
                if (sp->values[a] + sp->values[b] != need) continue;
                out[count].after = settle(sp, state & ~(1ULL << a) & ~(1ULL << b) & ~(1ULL << place));
                out[count++].removal = 1;
            }
    }
    if (n_usable < 2 || !sp->pairs_ok) return count;
    int ordered[MAX_USABLE];
    for (int u = 0; u < n_usable; u++) { /* sorted by place: an insertion sort of a few */
        int v = usable[u], k = u;
        for (; k > 0 && ordered[k - 1] > v; k--) ordered[k] = ordered[k - 1];
        ordered[k] = v;
    }
    for (int i = 0; i < n_usable; i++)
        for (int j = i + 1; j < n_usable; j++) {
            int x = P + ordered[i], y = P + ordered[j];
            /* the slots whose partner value (by_need's key) is the two cards' sum */
            int key = sp->values[x] + sp->values[y];
            if (key < 0 || key >= MAX_TARGET) continue;
            for (int k = 0; k < shape->need_count[key]; k++) {
                int slot = shape->need_slots[key][k];
                out[count].after = settle(sp, state & ~(1ULL << slot) & ~(1ULL << x) & ~(1ULL << y));
                out[count++].removal = 1;
            }
        }
    if (n_usable == 3) { /* three waste tops */
        int x = P + ordered[0], y = P + ordered[1], z = P + ordered[2];
        if (sp->values[x] + sp->values[y] + sp->values[z] == target) {
            out[count].after = settle(sp, state & ~(1ULL << x) & ~(1ULL << y) & ~(1ULL << z));
            out[count++].removal = 1;
        }
    }
    return count;
}

/* At most: the pyramid-only removals (<= P*P), a removal per exposed slot per usable card, a pair, a
 * draw or recycle.  ``verdict``: SearchSpace._successors with shortest=False, where a usable
 * stock-side king is the only move when SearchSpace.king_at_once holds (one card a draw, or no
 * recycle to come; the C rule sets have no waste-use limit, so waste_end is -1); otherwise
 * shortest=True. */
#ifdef WIDE
__attribute__((unused))
#endif
static int successors(Space *sp, uint64_t state, Step *out, int room, int *n, int verdict) {
    int count = 0;
    uint64_t pyramid = state & sp->pyramid_full;
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    *n = 0;
    if (!pyramid && (!sp->strict || !stock)) return 0;
    Shape *shape = shape_of(sp, pyramid);
    if (!shape) return -1;
    if (shape->king >= 0) {
        out[0].after = state & ~(1ULL << shape->king);
        out[0].removal = 1;
        *n = 1;
        return 0;
    }
    uint64_t ptr = state >> sp->ptr_shift & PTR_MASK;
    /* SearchSpace.usable_stock_indices: the drawn card, the waste's top (each pile's), the stock's top if usable */
    int usable[MAX_USABLE], n_usable = 0;
    uint64_t passed = stock & ((1ULL << ptr) - 1), below = passed;
    if (sp->drawn_spot) {
        if (ptr && (stock >> (ptr - 1) & 1)) usable[n_usable++] = (int)ptr - 1;
        below = ptr > 1 ? stock & ((1ULL << (ptr - 1)) - 1) : 0;
    }
    if (sp->n_piles) {
        for (int k = 0; k < sp->n_piles; k++)
            if (below & sp->pile_masks[k]) usable[n_usable++] = bit_length(below & sp->pile_masks[k]) - 1;
    } else if (below) {
        usable[n_usable++] = bit_length(below) - 1;
    }
    uint64_t above = stock >> ptr;
    if (sp->stock_top_usable && above) usable[n_usable++] = (int)ptr + __builtin_ctzll(above);
    int P = sp->P;
    uint64_t rest = state & ~sp->pyramid_full;
    if (shape->n_removals + STOCK_STEPS > room) {
        PyErr_SetString(PyExc_RuntimeError, "_astar: too many successors");
        return -1;
    }
    for (int i = 0; i < shape->n_removals; i++) {
        out[count].after = rest | shape->removals[i];
        out[count++].removal = 1;
    }
    for (int u = 0; u < n_usable; u++) {
        int index = usable[u];
        int value = sp->values[P + index];
        if (value == sp->lone) {
            uint64_t without = settle(sp, state & ~(1ULL << (index + sp->stock_shift)));
            if (verdict && sp->king_at_once) {
                out[0].after = without;
                out[0].removal = 1;
                *n = 1;
                return 0;
            }
            out[count].after = without;
            out[count++].removal = 1;
            continue;
        }
        if (value < 0 || value >= MAX_TARGET || !shape->need_count[value]) continue;
        uint64_t without = settle(sp, state & ~(1ULL << (index + sp->stock_shift)));
        for (int j = 0; j < shape->need_count[value]; j++) {
            out[count].after = without & ~(1ULL << shape->need_slots[value][j]);
            out[count++].removal = 1;
        }
    }
    if (n_usable >= 2 && sp->pairs_ok) {
        for (int i = 0; i < n_usable; i++)
            for (int j = i + 1; j < n_usable; j++) {
                int a = usable[i], b = usable[j];
                if (sp->values[P + a] + sp->values[P + b] != sp->target) continue;
                out[count].after =
                    settle(sp, state & ~(1ULL << (a + sp->stock_shift)) & ~(1ULL << (b + sp->stock_shift)));
                out[count++].removal = 1;
            }
    }
    /* SearchSpace._joker_moves: a joker with any exposed card, then with any usable stock-side card */
    uint64_t jokers = state >> sp->jok_shift & sp->jok_mask;
    for (int j = 0; jokers >> j; j++) {
        if (!(jokers >> j & 1)) continue;
        uint64_t without = state & ~(1ULL << (sp->jok_shift + j));
        for (int e = 0; e < shape->n_exposed; e++) {
            out[count].after = without & ~(1ULL << shape->exposed[e]);
            out[count++].removal = 1;
        }
        for (int u = 0; u < n_usable; u++) {
            out[count].after = settle(sp, without & ~(1ULL << (usable[u] + sp->stock_shift)));
            out[count++].removal = 1;
        }
    }
    if (sp->triples) count += triple_moves(sp, state, shape, usable, n_usable, out + count);
    if (above) {
        int top = (int)ptr + __builtin_ctzll(above);
        if (verdict || !(sp->stock_top_usable && sp->values[P + top] == sp->lone)) {
            uint64_t dealt = sp->draw_count == 1 ? (uint64_t)top + 1 : dealt_to(sp, above, ptr);
            out[count].after = (state & ~(PTR_MASK << sp->ptr_shift)) | dealt << sp->ptr_shift;
            out[count++].removal = 0;
        }
    } else if (passed) {
        int rec = (int)(state >> sp->rec_shift & sp->rec_mask);
        if (sp->max_recycles < 0 || rec < sp->max_recycles) {
            rec = sp->unlimited ? 0 : rec + 1;
            uint64_t cleared = state & ~(((1ULL << (PTR_BITS + sp->rec_bits)) - 1) << sp->ptr_shift);
            out[count].after = cleared | (uint64_t)rec << sp->rec_shift;
            out[count++].removal = 0;
        }
    }
    *n = count;
    return 0;
}

/* --- the bound (StepsBound.bound) --------------------------------------------------------------- */

typedef struct {
    int n[MAX_VALUE];
    int cost[MAX_VALUE][64];
} Found;

/* sweeps.StockSweeps.sweep: the cards leave from the lowest index up (upward) or the highest down. */
/* ``first``: sweeps.StockSweeps.sweep's (a drawn spot: the j-th card costs at least j + first), or -1. */
/* ``before``: record the cost of the cards in front of each needed card, not counting its own
 * (sweeps.StockSweeps.sweep's, for the round trip without a usable stock top). */
/* ``block``: the waste dug from its top with only its top usable (sweeps.StockSweeps.sweep's): stop once
 * more cards of a value have passed than there are pyramid cards to take them. */
/* ``stuck``: cards that cost a draw each whatever their value (sweeps.StockSweeps.sweep's). */
/* ``one``: record only the first card of each value (all the round trip reads), and stop once each
 * value the pyramid needs has one. */
/* ``stop``: values (a bit each) whose first card is all that is wanted, whichever comes first (the last
 * pass's): stop there, or 0. */
static int sweep(const Space *sp, uint64_t cards, int upward, const Shape *s, Found *found, int first, int before,
                 int block, uint64_t stuck, int one, uint32_t stop) {
    int used[MAX_TARGET];
    memset(used, 0, sizeof(int) * (size_t)s->width);
    int cost = 0, passed = 0;
    int short_ = s->n_deficits;
    int target = sp->target, lone = sp->lone, width = s->width, P = sp->P;
    uint32_t blocked = 0; /* deficits (by place) no longer dug out */
    while (cards) {
        int index;
        if (upward) {
            index = __builtin_ctzll(cards);
        } else {
            index = bit_length(cards) - 1;
        }
        cards &= ~(1ULL << index);
        int value = sp->values[P + index];
        int other = target - value;
        int prior = cost;
        if (value == lone || !(0 < other && other < width) || (stuck >> index & 1)) {
            cost += 1;
        } else {
            int c = used[value] + 1;
            used[value] = c;
            int beyond = c - s->free_[value];
            if (beyond > 0) {
                if (other == value) {
                    cost += 1 - beyond % 2;
                } else if (beyond > used[other] - s->free_[other] || beyond > s->cap[value]) {
                    cost += 1;
                }
            }
        }
        int want = value >= 0 && value < MAX_VALUE ? (one && s->wanted[value] ? 1 : s->wanted[value]) : 0;
        if (want && found->n[value] < want && !(blocked >> s->def_index[value] & 1)) {
            found->cost[value][found->n[value]++] =
                before ? prior : first < 0 || cost >= passed + first ? cost : passed + first;
            if (stop >> value & 1) return cost;
            if (found->n[value] == want) {
                short_ -= 1;
                if (!short_) return -1;
            }
        }
        passed++;
        if (block && value != lone) {
            if (!(0 < other && other < width)) return cost;
            for (int i = 0; i < s->n_deficits; i++) {
                if (used[value] > s->dig[i][value] && !(blocked >> i & 1)) {
                    blocked |= 1u << i;
                    if (found->n[s->def_value[i]] < s->def_count[i]) {
                        short_ -= 1;
                        if (!short_) return cost;
                    }
                }
            }
        }
    }
    if (first >= 0 && passed && cost < passed - 1 + first) return passed - 1 + first;
    return cost;
}

/* sweeps.StockSweeps.stuck: the waste cards that cannot leave before the next recycle. */
static uint64_t stuck_of(const Space *sp, uint64_t waste, const Shape *s) {
    int seen[MAX_TARGET] = {0};
    int target = sp->target;
    for (uint64_t rest = waste; rest;) {
        int top = bit_length(rest) - 1;
        rest &= ~(1ULL << top);
        int value = sp->values[sp->P + top];
        if (value == sp->lone) continue;
        if (!(0 < value && value < target) || ++seen[value] > s->partners[value]) return waste & ((2ULL << top) - 1);
    }
    return 0;
}

/* sweeps.reach: the fewest extra steps to reach ``count`` cards of ``value``, some from the waste, the
 * rest ahead, or round through a recycle (``round_trip``); 0 for none. */
static int reach_of(int count, int value, const Found *left, const Found *right, int round_trip, int msc) {
    int n_left = left->n[value], n_right = right->n[value];
    int reach = round_trip;
    int first = count - n_right > 0 ? count - n_right : 0;
    int last = count < n_left ? count : n_left;
    for (int from_left = first; from_left <= last; from_left++) {
        int from_right = count - from_left;
        int cost_left = from_left ? left->cost[value][from_left - 1] : 0;
        int cost_right = from_right ? right->cost[value][from_right - 1] : 0;
        int cost = msc ? (cost_left > cost_right ? cost_left : cost_right) : cost_left + cost_right;
        if (cost < reach) reach = cost;
    }
    return reach;
}

/* sweeps.StockSweeps.ahead without a usable stock top: each card ahead must be drawn, so the j-th
 * costs j; the cost of passing them all and recycling (-1 when every needed value was found). */
static int drawn_ahead(const Space *sp, uint64_t rest, const Shape *s, Found *right) {
    int passed = 0, short_ = s->n_deficits;
    while (rest) {
        int index = __builtin_ctzll(rest);
        rest &= rest - 1;
        passed++;
        int value = sp->values[sp->P + index];
        if (value >= 0 && value < MAX_VALUE && s->wanted[value]) {
            if (right->n[value] == s->wanted[value]) continue;
            right->cost[value][right->n[value]++] = passed;
            if (right->n[value] == s->wanted[value] && !--short_) return -1;
        }
    }
    return passed + 1; /* after a recycle the first card must be drawn again */
}

static int bound(const Space *sp, uint64_t state, Shape *s) {
    /* a triple may take three pyramid cards in one step (StepsBound.bound) */
    if (sp->triples) return (__builtin_popcountll(state & sp->pyramid_full) + 2) / 3;
    /* several cards a draw (one draw passes several cards): the removal steps only (StepsBound.bound) */
    if (!s->n_deficits || sp->draw_count > 1) return s->total;
    /* a joker may stand in for any one stock card the pyramid needs (sweeps.with_jokers) */
    int jokers = __builtin_popcountll(state >> sp->jok_shift & sp->jok_mask);
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    uint64_t ptr = state >> sp->ptr_shift & PTR_MASK;
    /* a drawn spot: bounded as the stock-top model one card back (StepsBound.bound) */
    int top_model = sp->stock_top_usable || sp->drawn_spot;
    int first = -1;
    if (sp->drawn_spot) {
        first = ptr && (stock >> (ptr - 1) & 1) ? 0 : 1;
        if (ptr) ptr--;
    }
    uint64_t rest = stock >> ptr << ptr;
    Found right, left;
    for (int i = 0; i < s->n_deficits; i++) {
        right.n[s->def_value[i]] = 0;
        left.n[s->def_value[i]] = 0;
    }
    int ahead = top_model ? sweep(sp, rest, 1, s, &right, first, 0, 0, 0, 0, 0) : drawn_ahead(sp, rest, s, &right);
    uint64_t waste = stock & ((1ULL << ptr) - 1);
    /* the waste dug only with a partner, and the cards stuck in it: not while a joker is left */
    int by_partner = !top_model && !jokers;
    if (waste) sweep(sp, waste, 0, s, &left, -1, 0, by_partner, 0, 0, 0);
    int rec = (int)(state >> sp->rec_shift & sp->rec_mask);
    int can_recycle = ahead >= 0 && (sp->max_recycles < 0 || rec < sp->max_recycles);
    int round_trip = can_recycle ? ahead + 1 : UNREACHABLE;
    int extra = 0;
    int msc = top_model;
    /* without a usable stock top, the round trip also passes the cards in front of the value's first
     * card in the next pass (StepsBound.bound). That sweep is made only when a value's reach without
     * it is the round trip itself: a reach under the round trip stays what it is (reach_of takes the
     * least), and so does the bound. */
    Found wrap;
    int wraps = can_recycle && !msc;
    int plain[MAX_VALUE]; /* without jokers, per deficit its reach with the round trip alone */
    if (!jokers) {
        int any = 0;
        for (int i = 0; i < s->n_deficits; i++) {
            plain[i] = reach_of(s->def_count[i], s->def_value[i], &left, &right, round_trip, msc);
            any |= plain[i] >= round_trip;
        }
        wraps = wraps && any;
    }
    if (wraps) {
        for (int i = 0; i < s->n_deficits; i++) wrap.n[s->def_value[i]] = 0;
        sweep(sp, stock, 1, s, &wrap, -1, 1, 0, by_partner ? stuck_of(sp, waste, s) : 0, 1, 0);
    }
    /* with jokers left, per deficit the reach of its count, of one card fewer, ... (sweeps.with_jokers) */
    int levels[MAX_VALUE][MAX_JOKERS + 1], n_levels[MAX_VALUE];
    for (int i = 0; i < s->n_deficits; i++) {
        int value = s->def_value[i], count = s->def_count[i];
        int trip = round_trip;
        if (wraps && wrap.n[value]) trip += wrap.cost[value][0];
        if (jokers) {
            int fewest = count - jokers > 0 ? count - jokers : 0;
            n_levels[i] = 0;
            for (int n = count; n >= fewest; n--) levels[i][n_levels[i]++] = reach_of(n, value, &left, &right, trip, msc);
            continue;
        }
        int reach = wraps && plain[i] >= round_trip ? reach_of(count, value, &left, &right, trip, msc) : plain[i];
        if (reach > extra) extra = reach;
    }
    if (jokers) {
        int used[MAX_VALUE] = {0};
        for (int j = 0; j < jokers; j++) {
            int costliest = 0;
            for (int i = 1; i < s->n_deficits; i++)
                if (levels[i][used[i]] > levels[costliest][used[costliest]]) costliest = i;
            if (used[costliest] == n_levels[costliest] - 1) break; /* no value needs a stock card */
            used[costliest]++;
        }
        for (int i = 0; i < s->n_deficits; i++)
            if (levels[i][used[i]] > extra) extra = levels[i][used[i]];
    }
    if (extra >= UNREACHABLE) extra = 0;
    /* recycles still to come (StepsBound.min_recycles): the cards ahead drawn, then each recycle and a
     * draw after it (StepsBound.bound) */
    if (!top_model && rec < sp->min_recycles) {
        int forced = __builtin_popcountll(stock >> ptr) + 2 * (sp->min_recycles - rec);
        /* the last pass: the cards in front of a candidate's partner (StepsBound._last_pass) */
        uint32_t partners = sp->last_pass_root ? s->last_partners : 0;
        for (uint32_t rest = partners; rest; rest &= rest - 1)
            if (!s->wanted[__builtin_ctz(rest)]) partners = 0;
        if (partners) {
            int next_is_last = sp->min_recycles - rec == 1;
            Found last;
            const Found *costs = &last;
            if (next_is_last && wraps) { /* the round trip's sweep is the same one (no jokers left) */
                costs = &wrap;
            } else {
                for (int i = 0; i < s->n_deficits; i++) last.n[s->def_value[i]] = 0;
                sweep(sp, stock, 1, s, &last, -1, 1, 0, next_is_last ? stuck_of(sp, waste, s) : 0, 1, partners);
            }
            int least = UNREACHABLE;
            for (uint32_t rest = partners; rest; rest &= rest - 1) {
                int value = __builtin_ctz(rest);
                if (costs->n[value] && costs->cost[value][0] < least) least = costs->cost[value][0];
            }
            if (least < UNREACHABLE) forced += least;
        }
        /* the pass after the next recycle, when not the last, draws the cards stuck in the waste */
        if (sp->last_pass_root && sp->min_recycles - rec > 1) {
            int stuck = __builtin_popcountll(stuck_of(sp, waste, s));
            if (stuck > 1) forced += stuck - 1;
        }
        if (forced > extra) extra = forced;
    }
    return s->total + extra;
}

#ifdef WIDE
__attribute__((unused))
#endif
static int bound_of(Space *sp, uint64_t state, int *out) {
    Shape *s = shape_of(sp, state & sp->pyramid_full);
    if (!s) return -1;
    *out = bound(sp, state, s);
    return 0;
}

/* --- the relaxed game (relaxed.RelaxedGame, for rule sets without triples, jokers or uses) ------ */

#define COUNT_BITS 4
#define COUNT_MASK 15ULL
/* the counts of values 14 and 15 (no card has them): with cells, the held cards' values (cells_memo_row) */
#define HELD_SHIFT 56

static inline int count_of(uint64_t counts, int value) { return (int)(counts >> (COUNT_BITS * value) & COUNT_MASK); }

/* RelaxedGame.ceiling: pyramid cards removed in all at the very most (see there). */
static int ceiling(Space *sp, uint64_t pyramid, uint64_t counts) {
    if (count_of(counts, 0)) return sp->P; /* while a joker is left, every card may go */
    int target = sp->target;
    uint64_t dead = 0, needing = 0;
    for (uint64_t rest = pyramid; rest; rest &= rest - 1) {
        int slot = __builtin_ctzll(rest);
        int value = sp->values[slot];
        if (value == sp->lone || (pyramid & sp->meeting[slot])) continue;
        int need = target - value;
        if (0 < need && need < MAX_VALUE && count_of(counts, need))
            needing |= 1ULL << slot;
        else
            dead |= 1ULL << slot;
    }
    uint64_t stuck = 0;
    for (uint64_t rest = dead; rest; rest &= rest - 1) stuck |= sp->kept_by[__builtin_ctzll(rest)];
    stuck &= pyramid;
    uint64_t alive = pyramid & ~stuck;
    int shortfall = 0;
    uint32_t paired_values = 0;
    for (int i = 0; i < sp->n_pairs_only; i++) {
        int value = sp->pairs_only[i][0], partner = sp->pairs_only[i][1];
        uint64_t cards = alive & sp->slots_of[value];
        if (!cards) continue;
        paired_values |= 1u << value;
        uint64_t partners = alive & sp->slots_of[partner];
        int served = (partners ? matching(sp, cards, partners) : 0) + count_of(counts, partner);
        int n = __builtin_popcountll(cards);
        if (n > served) shortfall += n - served;
    }
    needing &= alive;
    int wanted[MAX_VALUE] = {0};
    for (uint64_t rest = needing; rest; rest &= rest - 1) {
        int value = sp->values[__builtin_ctzll(rest)];
        if (!(paired_values >> value & 1)) wanted[target - value]++;
    }
    for (int need = 1; need < MAX_VALUE; need++) {
        int have = count_of(counts, need);
        if (wanted[need] > have) shortfall += wanted[need] - have;
    }
    return sp->P - __builtin_popcountll(stuck) - shortfall;
}

/* RelaxedGame.reaches: can the relaxed game remove at least k pyramid cards in all from (pyramid,
 * counts)?  1, 0, or -1 on an error.  The same exact answers, asked with the same memo of bounds. */
static int reaches(Space *sp, uint64_t pyramid, uint64_t counts, int k) {
    Bound *row = bounds_row(&sp->bounds, counts, pyramid);
    if (!row) {
        PyErr_NoMemory();
        return -1;
    }
    int low, high;
    if (!row->used) {
        if (sp->poll_fn != Py_None) {
            PyObject *polled = PyObject_CallNoArgs(sp->poll_fn);
            if (!polled) return -1;
            Py_DECREF(polled);
        }
        low = sp->P - __builtin_popcountll(pyramid);
        high = ceiling(sp, pyramid, counts);
        /* the poll and the ceiling add no row, so row is still this one */
        row->used = 1;
        row->low = (uint8_t)low;
        row->high = (uint8_t)(high < 0 ? 0 : high);
        high = row->high;
    } else {
        low = row->low;
        high = row->high;
    }
    if (low >= k) return 1;
    if (high < k) return 0;
    Shape *shape = shape_of(sp, pyramid);
    if (!shape) return -1;
    int found = 0;
    if (shape->king >= 0) {
        found = reaches(sp, pyramid & ~(1ULL << shape->king), counts, k);
        if (found < 0) return -1;
    } else {
        for (int i = 0; i < shape->n_removals && !found; i++) {
            found = reaches(sp, shape->removals[i], counts, k);
            if (found < 0) return -1;
        }
        for (int need = 1; need < MAX_VALUE && !found; need++) {
            if (!shape->need_count[need] || !count_of(counts, need)) continue;
            uint64_t fewer = counts - (1ULL << (COUNT_BITS * need));
            for (int j = 0; j < shape->need_count[need] && !found; j++) {
                found = reaches(sp, pyramid & ~(1ULL << shape->need_slots[need][j]), fewer, k);
                if (found < 0) return -1;
            }
        }
        /* a joker (the bag's value 0) takes any exposed card */
        for (int e = 0; e < shape->n_exposed && !found && count_of(counts, 0); e++) {
            found = reaches(sp, pyramid & ~(1ULL << shape->exposed[e]), counts - 1, k);
            if (found < 0) return -1;
        }
    }
    /* the row may have moved as the memo grew */
    row = bounds_row(&sp->bounds, counts, pyramid);
    if (!row) {
        PyErr_NoMemory();
        return -1;
    }
    if (found)
        row->low = (uint8_t)k;
    else
        row->high = (uint8_t)(k - 1);
    return found;
}

/* The relaxed game's bag of a state: how many stock cards of each value are left (SearchSpace.bag). */
static uint64_t bag_of(const Space *sp, uint64_t state) {
    uint64_t counts = 0;
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    for (uint64_t rest = stock; rest; rest &= rest - 1)
        counts += 1ULL << (COUNT_BITS * sp->values[sp->P + __builtin_ctzll(rest)]);
    return counts + (uint64_t)__builtin_popcountll(state >> sp->jok_shift & sp->jok_mask); /* jokers at value 0 */
}

/* SearchSpace.won: the pyramid cleared (none of its cards parked), and in strict rules the stock side
 * and the cells emptied too. */
static inline int is_won(const Space *sp, state_t state) {
    uint64_t low = (uint64_t)state;
#ifdef WIDE
    uint64_t parked = cells_of(state);
#else
    uint64_t parked = 0;
#endif
    return !(low & sp->pyramid_full) && !(parked & sp->pyramid_full) &&
           (!sp->strict || !((low >> sp->stock_shift & sp->stock_mask) || parked));
}

#ifdef WIDE
/* search.py's state of a position of the wide build (without the park's mark); NULL on an error. */
static PyObject *state_to_py(const Space *sp, state_t state) {
    PyObject *low = PyLong_FromUnsignedLongLong(low_of(state));
    PyObject *cells = PyLong_FromUnsignedLongLong(cells_of(state));
    PyObject *shift = PyLong_FromLong(sp->cell_shift);
    PyObject *high = low && cells && shift ? PyNumber_Lshift(cells, shift) : NULL;
    PyObject *out = high ? PyNumber_Or(high, low) : NULL;
    Py_XDECREF(low);
    Py_XDECREF(cells);
    Py_XDECREF(shift);
    Py_XDECREF(high);
    return out;
}

/* The wide build's position of a search.py state; -1 with an exception set on an error. */
static int state_from_py(const Space *sp, PyObject *o, state_t *out) {
    PyObject *shift = PyLong_FromLong(sp->cell_shift);
    PyObject *mask = PyLong_FromUnsignedLongLong(sp->cell_shift >= 64 ? UINT64_MAX : (1ULL << sp->cell_shift) - 1);
    PyObject *low = shift && mask ? PyNumber_And(o, mask) : NULL;
    PyObject *high = low ? PyNumber_Rshift(o, shift) : NULL;
    int result = -1;
    if (high) {
        uint64_t l = PyLong_AsUnsignedLongLong(low), h = PyLong_AsUnsignedLongLong(high);
        if (!PyErr_Occurred()) {
            if (h & PARK_FLAG) {
                PyErr_SetString(PyExc_ValueError, "_astar_wide: a state with more parked places than it takes");
            } else {
                *out = make_state(l, h);
                result = 0;
            }
        }
    }
    Py_XDECREF(shift);
    Py_XDECREF(mask);
    Py_XDECREF(low);
    Py_XDECREF(high);
    return result;
}
#define STATE_TO_PY(sp, state) state_to_py(sp, state)
#else
#define STATE_TO_PY(sp, state) PyLong_FromUnsignedLongLong(state)
#endif

#ifdef WIDE
/* With cells, SearchSpace.hopeless and SearchSpace.reach_now are the relaxed game with cells from the
 * pyramid, its parked cards and the bag (the stock's values and the parked stock cards): their answers
 * are kept on those, in the rows of the relaxed game's memo (unused with cells), so that only a new
 * one is asked of Python.  SearchSpace.hopeless_held (``held``) asks it with the parked stock cards held
 * apart from the bag (cells.CellGame.reach): its rows keep the bag without them and their values (two
 * at most) in the bag's top byte, the counts of values 14 and 15 that no card has.  The row of
 * ``state`` (NULL with *failed set when out of memory, NULL alone where the pyramid and its parked
 * cards, or the held cards, do not fit one key). */
static Bound *cells_memo_row(Space *sp, state_t state, int held, int *failed) {
    *failed = 0;
    if (2 * sp->P > 64) return NULL;
    uint64_t low = low_of(state), cells = cells_of(state);
    uint64_t counts = bag_of(sp, low);
    if (counts >> HELD_SHIFT) return NULL;
    int n_held = 0;
    for (uint64_t rest = cells >> sp->P; rest; rest &= rest - 1) {
        uint64_t value = (uint64_t)sp->values[sp->P + __builtin_ctzll(rest)];
        if (!held) {
            counts += 1ULL << (COUNT_BITS * value);
            continue;
        }
        if (n_held == 2 || value > COUNT_MASK) return NULL;
        counts |= value << (HELD_SHIFT + COUNT_BITS * n_held++);
    }
    /* Each value of the bag kept only as far as cards could ever take it: a bag card goes with a
     * pyramid card in place or parked, or with a held card, of the partner value, each taking one (a
     * king's none). More change no answer of the relaxed game, and a row then serves more positions:
     * FC1-R-AAAAAAD asked Python 253,560 times without this (docs/performance.md). */
    int takers[MAX_VALUE] = {0};
    for (uint64_t rest = (low | cells) & sp->pyramid_full; rest; rest &= rest - 1)
        takers[sp->values[__builtin_ctzll(rest)]]++;
    for (int i = 0; i < n_held; i++) takers[counts >> (HELD_SHIFT + COUNT_BITS * i) & COUNT_MASK]++;
    for (int value = 1; COUNT_BITS * value < HELD_SHIFT; value++) {
        int have = count_of(counts, value), need = sp->target - value;
        int cap = 0 < need && need < MAX_VALUE ? takers[need] : 0;
        if (have > cap) counts -= (uint64_t)(have - cap) << (COUNT_BITS * value);
    }
    uint64_t board = low & sp->pyramid_full;
    if (sp->P < 64) board |= (cells & sp->pyramid_full) << sp->P; /* the parked pyramid cards */
    Bound *row = bounds_row(&sp->bounds, counts, board);
    if (!row) {
        PyErr_NoMemory();
        *failed = 1;
    }
    return row;
}

/* ``fn(state)``, a count from 0 to 255 (a bool: SearchSpace.hopeless; the relaxed game's most cards
 * removed: SearchSpace.reach_now), kept in the row of cells_memo_row: ``which`` 1 in its low byte, 2 in
 * its high one (a bit of ``used`` each).  -1 on an error. */
static int cells_answer(Space *sp, state_t state, PyObject *fn, int which, int held) {
    int failed;
    Bound *row = cells_memo_row(sp, state, held, &failed);
    if (failed) return -1;
    if (row && row->used & which) return which == 1 ? row->low : row->high;
    PyObject *key = state_to_py(sp, state);
    if (!key) return -1;
    PyObject *answer = PyObject_CallOneArg(fn, key);
    Py_DECREF(key);
    if (!answer) return -1;
    long got = PyLong_AsLong(answer);
    Py_DECREF(answer);
    if (got == -1 && PyErr_Occurred()) return -1;
    if (got < 0 || got > 255) {
        PyErr_SetString(PyExc_ValueError, "_astar_wide: an answer of the relaxed game out of range");
        return -1;
    }
    if (row) {
        row->used |= (uint8_t)which;
        *(which == 1 ? &row->low : &row->high) = (uint8_t)got;
    }
    return (int)got;
}
#endif

/* SearchSpace.hopeless: 1 if the state can certainly not be won, 0 if not, -1 on an error. */
static int hopeless(Space *sp, state_t state) {
    if (sp->relaxed) {
        int found = reaches(sp, (uint64_t)state & sp->pyramid_full, bag_of(sp, (uint64_t)state), sp->P);
        return found < 0 ? -1 : !found;
    }
#ifdef WIDE
    return cells_answer(sp, state, sp->hopeless_fn, 1, 0);
#else
    PyObject *key = PyLong_FromUnsignedLongLong(state);
    if (!key) return -1;
    PyObject *answer = PyObject_CallOneArg(sp->hopeless_fn, key);
    Py_DECREF(key);
    if (!answer) return -1;
    int result = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return result;
#endif
}


#ifdef WIDE
/* --- free cells (the wide build): cells.CellGame's moves and StepsBound.bound with cells ----------- */

/* The moves of CellGame.successors (shortest=True, or False with ``verdict``; every waste use left) in its order: removals (the
 * pyramid's own first, then with the waste's top, then a pair of stock-side cards), those of the parked
 * cards, the draw or recycle, then the parks.  The rule sets with cells the wide build takes have the
 * classic stock side (one waste pile, no drawn spot, no usable stock top: search._c_search_fits), so the
 * waste's top is the one usable stock-side card. */
static int cell_successors(Space *sp, state_t whole, Step *out, int room, int *n, int verdict) {
    uint64_t state = low_of(whole), cells = cells_of(whole);
    uint64_t pyramid = state & sp->pyramid_full;
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    int P = sp->P, count = 0;
    *n = 0;
    if (is_won(sp, whole)) return 0;
    Shape *shape = shape_of(sp, pyramid);
    if (!shape) return -1;
    if (shape->n_removals + STOCK_STEPS + CELL_STEPS > room) {
        PyErr_SetString(PyExc_RuntimeError, "_astar_wide: too many successors");
        return -1;
    }
    if (shape->king >= 0) {
        out[0] = (Step){make_state(state & ~(1ULL << shape->king), cells), 1, 0, 1ULL << shape->king};
        *n = 1;
        return 0;
    }
    int parked[MAX_CELLS], n_parked = 0;
    for (uint64_t rest = cells; rest && n_parked < MAX_CELLS; rest &= rest - 1) parked[n_parked++] = __builtin_ctzll(rest);
    /* a parked king goes at once (a stock one, in the shortest search, only in strict rules) */
    for (int i = 0; i < n_parked; i++) {
        int place = parked[i];
        if (sp->values[place] == sp->lone && (place < P || sp->strict || verdict)) {
            out[0] = (Step){make_state(state, cells & ~(1ULL << place)), 1, 0, 1ULL << place};
            *n = 1;
            return 0;
        }
    }
    uint64_t ptr = state >> sp->ptr_shift & PTR_MASK;
    uint64_t passed = stock & ((1ULL << ptr) - 1);
    int usable[1], n_usable = 0;
    if (passed) usable[n_usable++] = bit_length(passed) - 1;
    uint64_t rest = state & ~sp->pyramid_full;
    for (int i = 0; i < shape->n_removals; i++)
        out[count++] = (Step){make_state(rest | shape->removals[i], cells), 1, 0, pyramid & ~shape->removals[i]};
    for (int u = 0; u < n_usable; u++) {
        int index = usable[u], value = sp->values[P + index];
        uint64_t without = settle(sp, state & ~(1ULL << (index + sp->stock_shift)));
        uint64_t card = 1ULL << (P + index);
        if (value == sp->lone) {
            out[count++] = (Step){make_state(without, cells), 1, 0, card};
            continue;
        }
        if (value < 0 || value >= MAX_TARGET) continue;
        for (int j = 0; j < shape->need_count[value]; j++) {
            int slot = shape->need_slots[value][j];
            out[count++] = (Step){make_state(without & ~(1ULL << slot), cells), 1, 0, card | 1ULL << slot};
        }
    }
    /* (one usable stock-side card: no pair of them) */
    for (int i = 0; i < n_parked; i++) { /* a parked card: alone, with an exposed, the waste's top or a parked card */
        int place = parked[i], value = sp->values[place];
        uint64_t without = cells & ~(1ULL << place), card = 1ULL << place;
        if (value == sp->lone) {
            out[count++] = (Step){make_state(state, without), 1, 0, card};
            continue;
        }
        if (value >= 0 && value < MAX_TARGET)
            for (int j = 0; j < shape->need_count[value]; j++) {
                int slot = shape->need_slots[value][j];
                out[count++] = (Step){make_state(state & ~(1ULL << slot), without), 1, 0, card | 1ULL << slot};
            }
        for (int u = 0; u < n_usable; u++)
            if (sp->values[P + usable[u]] + value == sp->target)
                out[count++] = (Step){make_state(settle(sp, state & ~(1ULL << (usable[u] + sp->stock_shift))), without), 1,
                                      0, card | 1ULL << (P + usable[u])};
        for (int j = i + 1; j < n_parked; j++)
            if (sp->values[parked[j]] + value == sp->target)
                out[count++] = (Step){make_state(state, without & ~(1ULL << parked[j])), 1, 0, card | 1ULL << parked[j]};
    }
    int removals = count > 0, stock_action = 0;
    uint64_t above = stock >> ptr;
    if (above) { /* CellGame._stock_action: the draw, or the recycle */
        int top = (int)ptr + __builtin_ctzll(above);
        uint64_t dealt = sp->draw_count == 1 ? (uint64_t)top + 1 : dealt_to(sp, above, ptr);
        out[count++] = (Step){make_state((state & ~(PTR_MASK << sp->ptr_shift)) | dealt << sp->ptr_shift, cells), 0, 0, 0};
        stock_action = 1;
    } else if (passed) {
        int rec = (int)(state >> sp->rec_shift & sp->rec_mask);
        if (sp->max_recycles < 0 || rec < sp->max_recycles) {
            rec = sp->unlimited ? 0 : rec + 1;
            uint64_t cleared = state & ~(((1ULL << (PTR_BITS + sp->rec_bits)) - 1) << sp->ptr_shift);
            out[count++] = (Step){make_state(cleared | (uint64_t)rec << sp->rec_shift, cells), 0, 0, 0};
            stock_action = 1;
        }
    }
    if (n_parked < sp->cells) {
        int parks[MAX_SLOTS + MAX_USABLE], n_parks = 0;
        for (int e = 0; e < shape->n_exposed; e++) parks[n_parks++] = shape->exposed[e];
        for (int u = 0; u < n_usable; u++) parks[n_parks++] = P + usable[u];
        if (n_parks && !removals && !stock_action) { /* parks that lead to no removal are no moves (Table.parks) */
            PyObject *key = state_to_py(sp, whole);
            PyObject *answer = key ? PyObject_CallOneArg(sp->useful_park_fn, key) : NULL;
            Py_XDECREF(key);
            if (!answer) return -1;
            int useful = PyObject_IsTrue(answer);
            Py_DECREF(answer);
            if (useful < 0) return -1;
            if (!useful) n_parks = 0;
        }
        for (int k = 0; k < n_parks; k++) {
            int place = parks[k];
            if (sp->values[place] == sp->lone) continue;
            uint64_t after = place < P ? state & ~(1ULL << place) : settle(sp, state & ~(1ULL << (place - P + sp->stock_shift)));
            out[count++] = (Step){make_state(after, cells | 1ULL << place), 0, 1, 1ULL << place};
        }
    }
    *n = count;
    return 0;
}

/* Packing.alike: the stock side laid by its values (the waste's on the stock's first places that hold
 * them in order, the pointer just past them, then the cards ahead likewise), a parked stock card the
 * first of its value neither on the stock side nor parked; PARK_FLAG kept. */
static state_t alike_of(const Space *sp, state_t whole) {
    uint64_t state = low_of(whole), cells = cells_of(whole);
    uint64_t flag = (uint64_t)(whole >> 64) & PARK_FLAG;
    uint64_t ptr = state >> sp->ptr_shift & PTR_MASK;
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    const int *values = sp->values + sp->P;
    uint64_t laid = 0, start = 0;
    int at = 0;
    uint64_t parts[2] = {stock & ((1ULL << ptr) - 1), stock >> ptr << ptr};
    for (int side = 0; side < 2; side++) {
        if (side) start = (uint64_t)at;
        for (uint64_t part = parts[side]; part; part &= part - 1) {
            int value = values[__builtin_ctzll(part)];
            while (values[at] != value) at++; /* never past the card's own place, which holds it */
            laid |= 1ULL << at++;
        }
    }
    uint64_t parked = cells >> sp->P;
    if (parked) {
        uint64_t moved = 0;
        for (; parked; parked &= parked - 1) {
            int value = values[__builtin_ctzll(parked)], first = 0;
            while (values[first] != value || (laid | moved) >> first & 1) first++;
            moved |= 1ULL << first;
        }
        cells = (cells & sp->pyramid_full) | moved << sp->P;
    }
    state = (state & ~(sp->stock_mask << sp->stock_shift) & ~(PTR_MASK << sp->ptr_shift)) | laid << sp->stock_shift |
            start << sp->ptr_shift;
    return make_state(state, cells | flag);
}

/* CellGame.after_park: of the moves of ``whole`` (reached by a park, one cell: the card in it is the
 * one just parked), those a shortest line may play next, kept in place; their count. */
static int after_park(Space *sp, state_t whole, Step *steps, int n) {
    uint64_t state = low_of(whole), cells = cells_of(whole);
    int place = bit_length(cells) - 1, P = sp->P, kept = 0;
    if (place < P) { /* a move with a card the park exposed */
        uint64_t pyramid = state & sp->pyramid_full;
        Shape *now = shape_of(sp, pyramid);
        if (!now) return -1;
        uint64_t exposed = now->exposed_mask;
        Shape *before = shape_of(sp, pyramid | 1ULL << place);
        if (!before) return -1;
        uint64_t freed = exposed & ~before->exposed_mask;
        for (int i = 0; i < n; i++)
            if (steps[i].removal && steps[i].taken & sp->pyramid_full & freed) steps[kept++] = steps[i];
        return kept;
    }
    /* a stock-side card: a draw, recycle or park, or a move with another stock-side card */
    uint64_t others = ~sp->pyramid_full & ~(1ULL << place);
    for (int i = 0; i < n; i++)
        if (!steps[i].removal || steps[i].taken & others) steps[kept++] = steps[i];
    return kept;
}

/* CellGame.park_leads: 0 if parking the pyramid card at ``place`` can be followed by none of the moves
 * after_park keeps, 1 otherwise (and for a stock-side card), -1 on an error. */
static int park_leads(Space *sp, state_t whole, int place) {
    int P = sp->P;
    if (place >= P) return 1;
    uint64_t state = low_of(whole);
    uint64_t pyramid = state & sp->pyramid_full;
    Shape *after = shape_of(sp, pyramid & ~(1ULL << place));
    if (!after) return -1;
    Shape *now = shape_of(sp, pyramid);
    if (!now) return -1;
    uint64_t exposed = after->exposed_mask;
    uint64_t freed = exposed & ~now->exposed_mask;
    if (!freed) return 0;
    uint64_t have = 1ULL << sp->values[place];
    for (uint64_t rest = exposed; rest; rest &= rest - 1) have |= 1ULL << sp->values[__builtin_ctzll(rest)];
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    uint64_t passed = stock & ((1ULL << (state >> sp->ptr_shift & PTR_MASK)) - 1);
    int top = passed ? sp->values[P + bit_length(passed) - 1] : -1; /* the usable stock-side card's value */
    if (top >= 0) have |= 1ULL << top;
    for (uint64_t rest = freed; rest; rest &= rest - 1) {
        int value = sp->values[__builtin_ctzll(rest)];
        int need = sp->target - value;
        if (value == sp->lone) return 1;
        if (0 < need && need < MAX_VALUE && (have >> need & 1)) {
            int same = 0;
            for (uint64_t e = exposed; e; e &= e - 1) same += sp->values[__builtin_ctzll(e)] == value;
            if (need != value || same > 1 || sp->values[place] == value) return 1;
            if (top == value) return 1; /* its only partner of the same value is itself: not a pair */
        }
    }
    return 0;
}

/* The bound's pyramid steps with cells (needs.PyramidNeeds.steps with the parked places), asked of
 * SearchSpace.pyramid_steps once per pyramid and parked places and kept. */
static inline uint64_t needs_hash(uint64_t pyramid, uint64_t cells) {
    return mix(pyramid ^ mix(cells + 0x9e3779b97f4a7c15ULL));
}

static void needs_clear(NeedsMap *m) {
    for (size_t i = 0; i < m->size; i++) shape_free(m->rows[i].shape);
    free(m->rows);
    m->rows = NULL;
    m->size = m->count = 0;
}

static Shape *needs_of(Space *sp, uint64_t pyramid, uint64_t cells) {
    NeedsMap *m = &sp->needs;
    uint64_t hash = needs_hash(pyramid, cells);
    if (m->size) {
        size_t i = hash & (m->size - 1);
        while (m->rows[i].shape) {
            if (m->rows[i].pyramid == pyramid && m->rows[i].cells == cells) return m->rows[i].shape;
            i = (i + 1) & (m->size - 1);
        }
    }
    Shape *s = shape_new(pyramid);
    if (!s) return NULL;
    int bad = 0;
    PyObject *answer = PyObject_CallFunction(sp->needs_fn, "KK", (unsigned long long)pyramid, (unsigned long long)cells);
    PyObject *deficits = NULL, *free_ = NULL, *cap = NULL, *dig = NULL, *partners = NULL;
    if (!answer) goto fail;
    deficits = PyObject_GetAttrString(answer, "deficits");
    free_ = PyObject_GetAttrString(answer, "free");
    cap = PyObject_GetAttrString(answer, "cap");
    dig = PyObject_GetAttrString(answer, "dig");
    partners = PyObject_GetAttrString(answer, "partners");
    if (!deficits || !free_ || !cap || !dig || !partners || !PyDict_Check(deficits) || !PyList_Check(free_) ||
        !PyList_Check(cap) || !PyDict_Check(dig) || !PyTuple_Check(partners) || PyList_GET_SIZE(free_) > MAX_TARGET ||
        PyList_GET_SIZE(cap) != PyList_GET_SIZE(free_) || PyTuple_GET_SIZE(partners) > MAX_TARGET)
        goto fail_type;
    {
        PyObject *total = PyObject_GetAttrString(answer, "total");
        if (!total) goto fail;
        s->total = (int)as_long(total, &bad);
        Py_DECREF(total);
    }
    s->width = (int)PyList_GET_SIZE(free_);
    for (int u = 0; u < s->width; u++) {
        s->free_[u] = (int)as_long(PyList_GET_ITEM(free_, u), &bad);
        s->cap[u] = (int)as_long(PyList_GET_ITEM(cap, u), &bad);
    }
    for (int u = 0; u < PyTuple_GET_SIZE(partners); u++)
        s->partners[u] = (uint8_t)as_long(PyTuple_GET_ITEM(partners, u), &bad);
    {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(deficits, &pos, &k, &v)) {
            long value = as_long(k, &bad), count = as_long(v, &bad);
            if (bad) goto fail;
            if (value < 0 || value >= MAX_VALUE || count < 1 || count > 64) goto fail_type;
            s->def_index[value] = s->n_deficits;
            s->def_value[s->n_deficits] = (int)value;
            s->def_count[s->n_deficits++] = (int)count;
            s->wanted[value] = (int)count;
        }
        pos = 0;
        while (PyDict_Next(dig, &pos, &k, &v)) {
            long value = as_long(k, &bad);
            if (bad) goto fail;
            if (value < 0 || value >= MAX_VALUE || !s->wanted[value] || !PyTuple_Check(v) ||
                PyTuple_GET_SIZE(v) > MAX_TARGET)
                goto fail_type;
            for (Py_ssize_t u = 0; u < PyTuple_GET_SIZE(v); u++)
                s->dig[s->def_index[value]][u] = (uint8_t)as_long(PyTuple_GET_ITEM(v, u), &bad);
        }
    }
    if (bad) goto fail;
    Py_DECREF(answer);
    Py_DECREF(deficits);
    Py_DECREF(free_);
    Py_DECREF(cap);
    Py_DECREF(dig);
    Py_DECREF(partners);
    if ((m->count + 1) * 2 > m->size) {
        size_t size = m->size ? m->size * 2 : 1024;
        NeedsRow *rows = calloc(size, sizeof(NeedsRow));
        if (!rows) {
            shape_free(s);
            PyErr_NoMemory();
            return NULL;
        }
        for (size_t j = 0; j < m->size; j++) {
            if (!m->rows[j].shape) continue;
            size_t i = needs_hash(m->rows[j].pyramid, m->rows[j].cells) & (size - 1);
            while (rows[i].shape) i = (i + 1) & (size - 1);
            rows[i] = m->rows[j];
        }
        free(m->rows);
        m->rows = rows;
        m->size = size;
    }
    size_t i = hash & (m->size - 1);
    while (m->rows[i].shape) i = (i + 1) & (m->size - 1);
    m->rows[i] = (NeedsRow){pyramid, cells, s};
    m->count++;
    return s;
fail_type:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_astar_wide: unexpected pyramid steps");
fail:
    Py_XDECREF(answer);
    Py_XDECREF(deficits);
    Py_XDECREF(free_);
    Py_XDECREF(cap);
    Py_XDECREF(dig);
    Py_XDECREF(partners);
    shape_free(s);
    return NULL;
}

/* sweeps.StockSweeps.together: the extra steps of reaching every value the pyramid needs at once (see
 * there), or UNREACHABLE. */
static int together(const Space *sp, const Shape *s, const Found *left, const Found *right, int round_trip,
                    uint64_t waste) {
    int ups[MAX_VALUE][64], n_ups[MAX_VALUE] = {0};
    if (round_trip < UNREACHABLE) { /* the waste from its bottom, as drawn again after the recycle */
        int passed = 0;
        for (uint64_t rest = waste; rest; rest &= rest - 1) {
            passed++;
            int value = sp->values[sp->P + __builtin_ctzll(rest)];
            if (value >= 0 && value < MAX_VALUE && s->wanted[value] && n_ups[value] < 64)
                ups[value][n_ups[value]++] = passed - 1;
        }
    }
    /* Per deficit, its choices of how many cards come from the waste: what digging them out costs
     * (dig) and the furthest the rest then needs ahead (plain) or round through a recycle (again).
     * Both lists come in order of dig: a sweep's costs only grow card by card. */
    int plain[MAX_VALUE][65][2], again[MAX_VALUE][65][2];
    int n_plain[MAX_VALUE], n_again[MAX_VALUE];
    /* The digs that may be the costliest, as a set: a dig is at most the waste's cards (64). */
    unsigned __int128 digs = 1;
    for (int i = 0; i < s->n_deficits; i++) {
        int value = s->def_value[i], count = s->def_count[i];
        int n_left = left->n[value], n_right = right->n[value], n_up = n_ups[value];
        n_plain[i] = n_again[i] = 0;
        for (int from_left = 0; from_left <= (count < n_left ? count : n_left); from_left++) {
            int dig = from_left ? left->cost[value][from_left - 1] : 0;
            int rest_count = count - from_left;
            if (rest_count <= n_right) {
                plain[i][n_plain[i]][0] = dig;
                plain[i][n_plain[i]++][1] = rest_count ? right->cost[value][rest_count - 1] : 0;
                digs |= (unsigned __int128)1 << dig;
            }
            if (round_trip < UNREACHABLE) {
                int from_bottom = rest_count - n_right > 0 ? rest_count - n_right : 0;
                if (from_bottom <= n_up) {
                    again[i][n_again[i]][0] = dig;
                    again[i][n_again[i]++][1] = from_bottom ? ups[value][from_bottom - 1] : 0;
                    digs |= (unsigned __int128)1 << dig;
                }
            }
        }
    }
    /* Each dig in increasing order, with every deficit taking its cheapest choice whose dig is no
     * more (sweeps._furthest): the choices let in so far, and the least of them, kept per deficit. */
    int at_plain[MAX_VALUE] = {0}, at_again[MAX_VALUE] = {0}, least_plain[MAX_VALUE], least_again[MAX_VALUE];
    for (int i = 0; i < s->n_deficits; i++) least_plain[i] = least_again[i] = UNREACHABLE;
    int best = UNREACHABLE;
    while (digs) {
        uint64_t low = (uint64_t)digs;
        int dig = low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((uint64_t)(digs >> 64));
        digs &= digs - 1;
        if (dig >= best) break;
        int far_plain = 0, far_again = 0;
        for (int i = 0; i < s->n_deficits; i++) {
            for (; at_plain[i] < n_plain[i] && plain[i][at_plain[i]][0] <= dig; at_plain[i]++)
                if (plain[i][at_plain[i]][1] < least_plain[i]) least_plain[i] = plain[i][at_plain[i]][1];
            for (; at_again[i] < n_again[i] && again[i][at_again[i]][0] <= dig; at_again[i]++)
                if (again[i][at_again[i]][1] < least_again[i]) least_again[i] = again[i][at_again[i]][1];
            if (least_plain[i] > far_plain) far_plain = least_plain[i];
            if (least_again[i] > far_again) far_again = least_again[i];
        }
        int a = dig + far_plain;
        int b = dig + round_trip + far_again;
        if (a < best) best = a;
        if (b < best) best = b;
    }
    return best;
}

/* StepsBound.bound with cells, on the classic stock side (only the waste's top usable, one card a draw
 * or several): the pyramid's steps with the parked cards counted where they were, and the extra steps
 * of all values at once (together), else of the costliest value. */
static int cell_bound_of(Space *sp, state_t whole, int *out) {
    uint64_t state = low_of(whole), cells = cells_of(whole);
    uint64_t pyramid = state & sp->pyramid_full;
    if (cells) pyramid |= cells & sp->pyramid_full; /* a parked card still has to go: count it where it was */
    Shape *s = needs_of(sp, pyramid, cells);
    if (!s) return -1;
    if (!s->n_deficits || sp->draw_count > 1) {
        *out = s->total;
        return 0;
    }
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    uint64_t ptr = state >> sp->ptr_shift & PTR_MASK;
    uint64_t rest = stock >> ptr << ptr;
    Found right, left;
    for (int i = 0; i < s->n_deficits; i++) {
        right.n[s->def_value[i]] = 0;
        left.n[s->def_value[i]] = 0;
    }
    int ahead = drawn_ahead(sp, rest, s, &right);
    uint64_t waste = stock & ((1ULL << ptr) - 1);
    if (waste) sweep(sp, waste, 0, s, &left, -1, 0, 0, 0, 0, 0);
    int rec = (int)(state >> sp->rec_shift & sp->rec_mask);
    int can_recycle = ahead >= 0 && (sp->max_recycles < 0 || rec < sp->max_recycles);
    int round_trip = can_recycle ? ahead + 1 : UNREACHABLE;
    int all = together(sp, s, &left, &right, round_trip, waste);
    if (all < UNREACHABLE) {
        *out = s->total + all;
        return 0;
    }
    int extra = 0;
    for (int i = 0; i < s->n_deficits; i++) {
        int reach = reach_of(s->def_count[i], s->def_value[i], &left, &right, round_trip, 0);
        if (reach > extra) extra = reach;
    }
    if (extra >= UNREACHABLE) extra = 0;
    *out = s->total + extra;
    return 0;
}

/* SearchSpace.draws_bound: ``found`` (the bound of cell_bound_of), or the pyramid's removal steps
 * plus the fewest cards ahead whose bag, with the waste's, lets the relaxed game with cells clear the
 * pyramid (hopeless, of the position with only those cards on its stock side), if that is more; found
 * by halving from the draws ``found`` counts already.  -1 on an error. */
static int draws_bound(Space *sp, state_t whole, int found, int *out) {
    uint64_t state = low_of(whole), cells = cells_of(whole);
    uint64_t stock = state >> sp->stock_shift & sp->stock_mask;
    uint64_t ptr = state >> sp->ptr_shift & PTR_MASK;
    uint64_t ahead = stock >> ptr << ptr;
    int cards = __builtin_popcountll(ahead);
    *out = found;
    Shape *s = needs_of(sp, (state & sp->pyramid_full) | (cells & sp->pyramid_full), cells);
    if (!s) return -1;
    int low = found - s->total;
    if (low >= cards) return 0;
    if (low < 0) low = 0;
    /* the position with the waste's cards and the first j ahead, for j = 0 .. cards */
    uint64_t firsts[65];
    firsts[0] = (state & ~(sp->stock_mask << sp->stock_shift)) | (stock & ((1ULL << ptr) - 1)) << sp->stock_shift;
    for (int j = 1; j <= cards; j++) {
        uint64_t card = ahead & -ahead;
        ahead ^= card;
        firsts[j] = firsts[j - 1] | card << sp->stock_shift;
    }
    int lost = hopeless(sp, make_state(firsts[low], cells));
    if (lost <= 0) return lost;
    int high = cards;
    low++;
    while (low < high) {
        int middle = (low + high) / 2;
        lost = hopeless(sp, make_state(firsts[middle], cells));
        if (lost < 0) return -1;
        if (lost)
            low = middle + 1;
        else
            high = middle;
    }
    *out = s->total + low;
    return 0;
}

#endif

/* Counter.advance(n): count n positions, and raise SearchTimeout past the deadline. */
static int advance(Space *sp, size_t n) {
    PyObject *count = PyLong_FromSize_t(n);
    if (!count) return -1;
    PyObject *done = PyObject_CallOneArg(sp->tick_fn, count);
    Py_DECREF(count);
    if (!done) return -1;
    Py_DECREF(done);
    return 0;
}

#define TICK_EVERY 512

/* --- the search -------------------------------------------------------------------------------- */

static int get_int(PyObject *params, const char *name, long *out) {
    PyObject *o = PyDict_GetItemString(params, name); /* borrowed */
    if (!o) {
        PyErr_Format(PyExc_KeyError, "_astar: no parameter %s", name);
        return -1;
    }
    *out = PyLong_AsLong(o);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int get_obj(PyObject *params, const char *name, PyObject **out) {
    *out = PyDict_GetItemString(params, name); /* borrowed */
    if (!*out) {
        PyErr_Format(PyExc_KeyError, "_astar: no parameter %s", name);
        return -1;
    }
    return 0;
}

/* The parameter ``name``, a tuple of ``count`` masks (one per pyramid slot), into ``out``. */
static int get_masks(PyObject *params, const char *name, uint64_t *out, int count) {
    PyObject *masks;
    if (get_obj(params, name, &masks) < 0) return -1;
    if (!PyTuple_Check(masks) || PyTuple_GET_SIZE(masks) != count) {
        PyErr_Format(PyExc_TypeError, "_astar: %s must be a tuple of a mask per pyramid slot", name);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(masks, i));
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

#define G_TOP 0xFFFF

/* Read the search's parameters (search._c_params) into sp; -1 with an exception set on an error. */
static int space_init(Space *sp, PyObject *params) {
    memset(sp, 0, sizeof *sp);
    long v;
#define INT_PARAM(field, name)                          \
    if (get_int(params, name, &v) < 0) return -1;     \
    sp->field = (int)v;
    INT_PARAM(P, "P")
    INT_PARAM(S, "S")
    INT_PARAM(target, "target")
    INT_PARAM(lone, "lone")
    INT_PARAM(strict, "strict")
    INT_PARAM(stock_top_usable, "stock_top_usable")
    INT_PARAM(drawn_spot, "drawn_spot")
    INT_PARAM(pairs_ok, "pairs_ok")
    INT_PARAM(draw_count, "draw_count")
    INT_PARAM(king_at_once, "king_at_once")
    INT_PARAM(unlimited, "unlimited")
    INT_PARAM(max_recycles, "max_recycles")
    INT_PARAM(min_recycles, "min_recycles")
    INT_PARAM(last_pass_root, "last_pass_root")
    INT_PARAM(stock_shift, "stock_shift")
    INT_PARAM(ptr_shift, "ptr_shift")
    INT_PARAM(rec_shift, "rec_shift")
    INT_PARAM(rec_bits, "rec_bits")
    INT_PARAM(triples, "triples")
    INT_PARAM(jokers, "jokers")
    INT_PARAM(jok_shift, "jok_shift")
#undef INT_PARAM
    sp->rec_mask = (1ULL << sp->rec_bits) - 1;
    sp->jok_mask = (1ULL << sp->jokers) - 1;
    if (sp->P > MAX_SLOTS || sp->P + sp->S > 128 || sp->rec_bits < 0 || sp->rec_shift + sp->rec_bits > 64 ||
        sp->jokers < 0 || sp->jokers > MAX_JOKERS || sp->jok_shift + sp->jokers > 64 ||
        sp->target >= MAX_VALUE ||
        sp->stock_shift != sp->P || sp->ptr_shift != sp->P + sp->S || sp->rec_shift != sp->ptr_shift + PTR_BITS) {
        PyErr_SetString(PyExc_ValueError, "_astar: a layout this search does not take");
        return -1;
    }
    PyObject *values;
    if (get_obj(params, "values", &values) < 0) return -1;
    if (!PyTuple_Check(values) || PyTuple_GET_SIZE(values) < sp->P + sp->S) {
        PyErr_SetString(PyExc_TypeError, "_astar: values must be a tuple of every place's value");
        return -1;
    }
    for (int i = 0; i < sp->P + sp->S; i++) {
        sp->values[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(values, i));
        if (PyErr_Occurred()) return -1;
    }
    if (get_obj(params, "shape", &sp->shape_fn) < 0 || get_obj(params, "hopeless", &sp->hopeless_fn) < 0 ||
        get_obj(params, "tick", &sp->tick_fn) < 0)
        return -1;
    long relaxed;
    if (get_int(params, "relaxed", &relaxed) < 0 || get_obj(params, "poll", &sp->poll_fn) < 0) return -1;
    sp->relaxed = (int)relaxed;
    /* the bound's dig counts read it too */
    if (get_masks(params, "kept_by", sp->kept_by, sp->P) < 0) return -1;
    PyObject *piles;
    if (get_obj(params, "pile_masks", &piles) < 0) return -1;
    if (!PyTuple_Check(piles) || PyTuple_GET_SIZE(piles) > MAX_PILES) {
        PyErr_SetString(PyExc_ValueError, "_astar: pile_masks must be a tuple of at most MAX_PILES masks");
        return -1;
    }
    sp->n_piles = (int)PyTuple_GET_SIZE(piles);
    for (int k = 0; k < sp->n_piles; k++) {
        sp->pile_masks[k] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(piles, k));
        if (PyErr_Occurred()) return -1;
    }
    if (sp->relaxed) {
        for (int slot = 0; slot < sp->P; slot++)
            if (sp->values[slot] >= 0 && sp->values[slot] < MAX_VALUE) sp->slots_of[sp->values[slot]] |= 1ULL << slot;
        /* RelaxedGame._pairs_only without triples: the values that go only in pairs, with their partner */
        for (int value = 1; value < MAX_VALUE; value++) {
            int partner = sp->target - value;
            if (value != sp->lone && 0 < partner && partner < MAX_VALUE && partner != value) {
                sp->pairs_only[sp->n_pairs_only][0] = value;
                sp->pairs_only[sp->n_pairs_only++][1] = partner;
            }
        }
    }
    if (get_masks(params, "meeting", sp->meeting, sp->P) < 0) return -1;
    sp->pyramid_full = (1ULL << sp->P) - 1;
    sp->stock_mask = sp->S >= 64 ? UINT64_MAX : (1ULL << sp->S) - 1;
#ifdef WIDE
    if (get_int(params, "cells", &v) < 0) return -1;
    sp->cells = (int)v;
    if (get_int(params, "cell_shift", &v) < 0) return -1;
    sp->cell_shift = (int)v;
    if (get_int(params, "parks_then_use", &v) < 0) return -1;
    sp->parks_then_use = (int)v;
    if (get_int(params, "alike", &v) < 0) return -1;
    sp->alike = (int)v;
    if (get_int(params, "prefix_draws", &v) < 0) return -1;
    sp->prefix_draws = (int)v;
    if (get_obj(params, "needs", &sp->needs_fn) < 0 || get_obj(params, "useful_park", &sp->useful_park_fn) < 0 ||
        get_obj(params, "reach", &sp->reach_fn) < 0 || get_obj(params, "hopeless_held", &sp->hopeless_held_fn) < 0)
        return -1;
    /* the classic stock side (the waste's top the one usable stock-side card), the relaxed game asked of
     * SearchSpace.hopeless, the parked places below PARK_FLAG */
    if (sp->cells < 1 || sp->cells > MAX_CELLS || sp->cell_shift > 64 || sp->cell_shift < sp->rec_shift + sp->rec_bits ||
        sp->P + sp->S > 63 || sp->drawn_spot || sp->stock_top_usable || sp->n_piles || sp->relaxed || sp->jokers ||
        sp->triples || (sp->parks_then_use && sp->cells != 1)) {
        PyErr_SetString(PyExc_ValueError, "_astar_wide: a rule set with cells this search does not take");
        return -1;
    }
#endif
    return 0;
}

#ifdef WIDE
#define SUCCESSORS(sp, state, steps, room, n) cell_successors(sp, state, steps, room, n, 0)
#define BOUND_OF(sp, state, h) cell_bound_of(sp, state, h)
#else
#define SUCCESSORS(sp, state, steps, room, n) successors(sp, state, steps, room, n, 0)
#define BOUND_OF(sp, state, h) bound_of(sp, state, h)
#endif

static PyObject *astar_shortest(PyObject *self, PyObject *args) {
    PyObject *params;
    state_t start = 0;
#ifdef WIDE
    PyObject *start_obj;
    if (!PyArg_ParseTuple(args, "O!O!", &PyDict_Type, &params, &PyLong_Type, &start_obj)) return NULL;
#else
    unsigned long long start_arg;
    if (!PyArg_ParseTuple(args, "O!K", &PyDict_Type, &params, &start_arg)) return NULL;
    start = start_arg;
#endif
    Space sp;
    if (space_init(&sp, params) < 0) return NULL;
#ifdef WIDE
    if (state_from_py(&sp, start_obj, &start) < 0) return NULL;
#endif

    PyObject *result = NULL;
    ReachedMap reached = {0};
    Buckets open = {0};
    int room = 0;
    Step *steps = NULL;
    if (reached_init(&reached, 1 << 12) < 0 || bounds_init(&sp.bounds, 1 << 12) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    room = sp.P * sp.P + STOCK_STEPS + CELL_STEPS;
    steps = malloc((size_t)room * sizeof(Step));
    if (!steps) {
        PyErr_NoMemory();
        goto done;
    }
    int first;
    if (BOUND_OF(&sp, start, &first) < 0) goto done;
    if (reached_set(&reached, start, NO_PARENT, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    size_t pending = 0;
    open.low = INT32_MAX;
    if (buckets_grow(&open, 96, 64) < 0 || buckets_push(&open, first, 0, start) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    while (open.total) {
        int popped, f;
        state_t state = buckets_pop(&open, &f, &popped);
        uint32_t g = (uint32_t)popped;
        state_t next = buckets_next(&open);
        if (next != EMPTY_STATE) __builtin_prefetch(&reached.rows[mix_state(next) & (reached.size - 1)]);
        Reached *row = reached_find(&reached, state);
        if (row->g < g) continue;
        if (is_won(&sp, state)) {
            /* won: the states of the line, from the start */
            if (pending && advance(&sp, pending) < 0) goto done;
            size_t length = 1;
            for (state_t at = state; at != start; at = reached_parent(&reached, at)) length++;
            result = PyList_New((Py_ssize_t)length);
            if (!result) goto done;
            state_t at = state;
            for (size_t i = length; i-- > 0;) {
                PyObject *o = STATE_TO_PY(&sp, at);
                if (!o) {
                    Py_CLEAR(result);
                    goto done;
                }
                PyList_SET_ITEM(result, (Py_ssize_t)i, o);
                if (i) at = reached_parent(&reached, at);
            }
            goto done;
        }
#ifdef WIDE
        /* taken after a recycle: its bound raised to SearchSpace.draws_bound, and put back if that is
         * more (asked when taken, not when reached: search._python_shortest does the same) */
        if (sp.prefix_draws && (low_of(state) >> sp.rec_shift & sp.rec_mask)) {
            int h;
            if (draws_bound(&sp, state & ~((state_t)PARK_FLAG << 64), f - (int)g, &h) < 0) goto done;
            if ((int)g + h > f) {
                if (buckets_push(&open, (int)g + h, (int)g, state) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
                continue;
            }
        }
#endif
        /* counted (and the deadline checked) every TICK_EVERY positions, as Counter.tick checks it */
        if (++pending == TICK_EVERY) {
            if (advance(&sp, pending) < 0) goto done;
            pending = 0;
        }
        uint32_t me;
        if (reached_expand(&reached, state, &me) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        /* compiled code runs no eval loop, so Ctrl-C is looked for here, as the Python loop would */
        if (!(reached.n_expanded & 1023) && PyErr_CheckSignals() < 0) goto done;
        uint32_t cost = g + 1;
        if (cost >= G_TOP) {
            PyErr_SetString(PyExc_ValueError, "a line longer than the shortest search counts");
            goto done;
        }
        int n;
        if (SUCCESSORS(&sp, state, steps, room, &n) < 0) goto done;
#ifdef WIDE
        if ((uint64_t)(state >> 64) & PARK_FLAG && (n = after_park(&sp, state, steps, n)) < 0) goto done;
        if (sp.parks_then_use) /* a park: the key of a state reached by one (search._python_shortest) */
            for (int i = 0; i < n; i++) {
                if (!steps[i].park) continue;
                int leads = park_leads(&sp, state, __builtin_ctzll(steps[i].taken));
                if (leads < 0) goto done;
                steps[i].after = leads ? steps[i].after | (state_t)PARK_FLAG << 64 : EMPTY_STATE;
            }
        if (sp.alike) /* keyed by Packing.alike, as search._python_shortest keys them */
            for (int i = 0; i < n; i++)
                if (steps[i].after != EMPTY_STATE) steps[i].after = alike_of(&sp, steps[i].after);
#endif
        /* the rows of the positions reached, asked of memory together (see the verdict's loop) */
        for (int i = 0; i < n; i++) __builtin_prefetch(&reached.rows[mix_state(steps[i].after) & (reached.size - 1)]);
        for (int i = 0; i < n; i++) {
            state_t after = steps[i].after;
            if (after == EMPTY_STATE) continue; /* a park that leads nowhere */
            Reached *known = reached_find(&reached, after);
            if (known && known->g <= cost) continue;
#ifdef WIDE
            /* a stock card just parked: the relaxed game with the card held, taking its cell
             * (SearchSpace.hopeless_held) */
            if (steps[i].park && !(steps[i].taken & sp.pyramid_full)) {
                int lost = cells_answer(&sp, after & ~((state_t)PARK_FLAG << 64), sp.hopeless_held_fn, 1, 1);
                if (lost < 0) goto done;
                if (lost) continue;
            }
#endif
            if (steps[i].removal) {
                int lost = hopeless(&sp, after);
                if (lost < 0) goto done;
                if (lost) continue;
            }
            if (known) {
                known->parent = me;
                known->g = cost;
            } else if (reached_set(&reached, after, me, cost) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            int h;
#ifdef WIDE
            if (BOUND_OF(&sp, after & ~((state_t)PARK_FLAG << 64), &h) < 0) goto done;
#else
            if (BOUND_OF(&sp, after, &h) < 0) goto done;
#endif
            if (buckets_push(&open, (int)cost + h, (int)cost, after) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        }
    }
    if (pending && advance(&sp, pending) < 0) goto done;
    result = Py_NewRef(Py_None);
done:
    free(reached.rows);
    free(reached.expanded);
    buckets_free(&open);
    free(steps);
    shapes_clear(&sp.shapes);
#ifdef WIDE
    needs_clear(&sp.needs);
#endif
    free(sp.bounds.rows);
    return result;
}

/* --- the verdict (search.find_win and search.win_or_best) ----------------------------------------- */

/* The states seen, as depth.depth_first_seen's set, with the check for the same position with fewer
 * recycles done folded in: a row holds a position with the fewest recycles it was seen with, found by
 * the position without its recycle count (``key`` masks it out), so one lookup answers both. */
typedef struct {
    state_t *rows;
    size_t size, count;
    state_t key; /* the bits that make the position: all but the recycle count where it is kept */
} SeenSet;

static int seen_init(SeenSet *m, size_t size, state_t key) {
    m->rows = malloc(size * sizeof(state_t));
    if (!m->rows) return -1;
    memset(m->rows, 0xFF, size * sizeof(state_t)); /* every row EMPTY_STATE */
    m->size = size;
    m->count = 0;
    m->key = key;
    return 0;
}

static inline size_t seen_slot(const SeenSet *m, state_t state) {
    size_t mask = m->size - 1;
    state_t key = state & m->key;
    size_t i = mix_state(key) & mask;
    while (m->rows[i] != EMPTY_STATE && (m->rows[i] & m->key) != key) i = (i + 1) & mask;
    return i;
}

/* The row of ``state``'s position (EMPTY_STATE if not seen): the state it was seen with, fewest recycles. */
static inline state_t *seen_row(SeenSet *m, state_t state) { return &m->rows[seen_slot(m, state)]; }

static inline void seen_prefetch(const SeenSet *m, state_t state) {
    __builtin_prefetch(&m->rows[mix_state(state & m->key) & (m->size - 1)]);
}

/* Keep ``state`` in its row (fewer recycles than the row's, or a new row); -1 when out of memory. */
static int seen_put(SeenSet *m, state_t *row, state_t state) {
    if (*row != EMPTY_STATE) {
        *row = state;
        return 0;
    }
    if ((m->count + 1) * 2 > m->size) {
        SeenSet bigger;
        if (seen_init(&bigger, m->size * 2, m->key) < 0) return -1;
        for (size_t j = 0; j < m->size; j++)
            if (m->rows[j] != EMPTY_STATE) bigger.rows[seen_slot(&bigger, m->rows[j])] = m->rows[j];
        bigger.count = m->count;
        free(m->rows);
        *m = bigger;
        row = seen_row(m, state);
    }
    *row = state;
    m->count++;
    return 0;
}

/* A position's frame of the depth-first search: its state, and its successors (steps[first ..
 * first + n]), of which the next to try. */
typedef struct {
    state_t state;
    state_t origin; /* the first frame of the run of frames with the same cards that ends here */
    size_t first;
    int n, next;
} Frame;

typedef struct {
    Frame *frames;
    size_t depth, frames_size;
    Step *steps;
    size_t used, steps_size;
} Stack;

/* Push ``state``'s frame with its successors (from scratch[0 .. n]); -1 when out of memory. */
static int stack_push(Stack *st, state_t state, state_t origin, const Step *scratch, int n) {
    if (st->depth == st->frames_size) {
        size_t size = st->frames_size ? st->frames_size * 2 : 256;
        Frame *frames = realloc(st->frames, size * sizeof(Frame));
        if (!frames) return -1;
        st->frames = frames;
        st->frames_size = size;
    }
    if (st->used + (size_t)n > st->steps_size) {
        size_t size = st->steps_size ? st->steps_size : 4096;
        while (size < st->used + (size_t)n) size *= 2;
        Step *steps = realloc(st->steps, size * sizeof(Step));
        if (!steps) return -1;
        st->steps = steps;
        st->steps_size = size;
    }
    memcpy(st->steps + st->used, scratch, (size_t)n * sizeof(Step));
    Frame *f = &st->frames[st->depth++];
    f->state = state;
    f->origin = origin;
    f->first = st->used;
    f->n = n;
    f->next = 0;
    st->used += (size_t)n;
    return 0;
}

/* The states of the frames, then ``last``, as a new list. */
static PyObject *line_of(const Space *sp, const Stack *st, state_t last) {
    PyObject *line = PyList_New((Py_ssize_t)st->depth + 1);
    if (!line) return NULL;
    for (size_t i = 0; i <= st->depth; i++) {
        PyObject *o = STATE_TO_PY(sp, i < st->depth ? st->frames[i].state : last);
        if (!o) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, (Py_ssize_t)i, o);
    }
    return line;
}


/* verdict(params, start, best, want_best[, kept]) -> (line, best, best_line).
 *
 * depth.depth_first from the canonical ``start``, visiting each new position as search.win_or_best
 * does (``want_best``: expand a position while its relaxed game can beat the best line found, which
 * is the verdict's "may still clear the pyramid" until a line clears it) or as search.find_win does
 * (cut a removal's position when its relaxed game cannot clear the pyramid).  The same successors in
 * the same order (SearchSpace._successors with shortest=False), the same skip of a position seen with
 * fewer recycles done, the same cuts: the same positions in the same order, and the same lines.
 * ``line`` is the states of a winning line from start, or None; ``best`` the most pyramid cards a line
 * seen removed (at least the ``best`` given), ``best_line`` the states of the first line that did.
 * Only for the rule sets whose relaxed game runs here (params["relaxed"]); params["tick"] is
 * Counter.advance.  When the search stops on an exception (the tick's SearchTimeout or BudgetSpent), the
 * list ``kept`` gets best and best_line as they stood, so a deal that runs out of time still tells how far
 * the lines it saw went. */
#ifdef WIDE
#define VERDICT_SUCCESSORS(sp, state, steps, room, n) cell_successors(sp, state, steps, room, n, 1)
#else
#define VERDICT_SUCCESSORS(sp, state, steps, room, n) successors(sp, state, steps, room, n, 1)
#endif

static PyObject *astar_verdict(PyObject *self, PyObject *args) {
    PyObject *params;
    state_t start = 0;
    int best, want_best;
    PyObject *kept = NULL;
#ifdef WIDE
    PyObject *start_obj;
    if (!PyArg_ParseTuple(args, "O!O!ip|O!", &PyDict_Type, &params, &PyLong_Type, &start_obj, &best, &want_best,
                          &PyList_Type, &kept))
        return NULL;
#else
    unsigned long long start_arg;
    if (!PyArg_ParseTuple(args, "O!Kip|O!", &PyDict_Type, &params, &start_arg, &best, &want_best, &PyList_Type, &kept))
        return NULL;
    start = start_arg;
#endif
    Space sp;
    if (space_init(&sp, params) < 0) return NULL;
#ifdef WIDE
    /* the relaxed game with cells is asked of Python (cells_answer: hopeless, reach_now); strict rules with one
     * usable stock-side card, whose starved-stock cut is Python's too, are not given here */
    if (state_from_py(&sp, start_obj, &start) < 0) return NULL;
#else
    if (!sp.relaxed) {
        PyErr_SetString(PyExc_ValueError, "_astar.verdict: only where the relaxed game runs in C");
        return NULL;
    }
#endif
    PyObject *result = NULL, *line = NULL, *best_line = NULL;
    SeenSet seen = {0};
    Stack st = {0};
    Step *scratch = NULL;
    int room = sp.P * sp.P + STOCK_STEPS + CELL_STEPS;
    size_t pending = 0, expanded = 0;
    int P = sp.P;
    /* depth.passes_order: the stronger skip of depth_first_passes needs one card a draw */
    int by_finish = sp.max_recycles >= 0 && sp.draw_count == 1;
    state_t rec_field = (state_t)(sp.rec_mask << sp.rec_shift);
    if (by_finish) rec_field |= (state_t)(PTR_MASK << sp.ptr_shift);
    if (seen_init(&seen, 1 << 12, ~rec_field) < 0 || bounds_init(&sp.bounds, 1 << 12) < 0 ||
        !(scratch = malloc((size_t)room * sizeof(Step))) ||
        (!by_finish && seen_put(&seen, seen_row(&seen, start), start) < 0)) {
        PyErr_NoMemory();
        goto done;
    }
    best_line = PyList_New(0);
    if (!best_line) goto done;
    int n;
    if (VERDICT_SUCCESSORS(&sp, start, scratch, room, &n) < 0) goto done;
    if (stack_push(&st, start, start, scratch, n) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    while (st.depth) {
        Frame *top = &st.frames[st.depth - 1];
        if (top->next == top->n) {
            if (by_finish) {
                state_t *row = seen_row(&seen, top->state);
                if ((*row == EMPTY_STATE || (*row & rec_field) > (top->state & rec_field)) &&
                    seen_put(&seen, row, top->state) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
            }
            st.used = top->first;
            st.depth--;
            continue;
        }
        Step step = st.steps[top->first + (size_t)top->next++];
        state_t state = step.after;
        /* skipped if seen, or seen with fewer recycles done (the recycle count is the only field that
         * differs between the two; rec_field is 0 when it is not kept) */
        state_t *row = seen_row(&seen, state);
        if (*row != EMPTY_STATE && (*row & rec_field) <= (state & rec_field)) continue;
#ifdef WIDE
        int cards_changed = step.removal || step.park; /* a park changes the cards too */
#else
        int cards_changed = step.removal;
#endif
        state_t origin = cards_changed ? state : top->origin;
        if (by_finish && !cards_changed) {
            int r0 = (int)((uint64_t)origin >> sp.rec_shift & sp.rec_mask), r = (int)((uint64_t)state >> sp.rec_shift & sp.rec_mask);
            uint64_t p0 = (uint64_t)origin >> sp.ptr_shift & PTR_MASK, p = (uint64_t)state >> sp.ptr_shift & PTR_MASK;
            if (r > r0 && (p >= p0 || r > r0 + 1)) continue;
        }
        if (!by_finish && seen_put(&seen, row, state) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if (++pending == TICK_EVERY) {
            if (advance(&sp, pending) < 0) goto done;
            pending = 0;
        }
        if (!(++expanded & 1023) && PyErr_CheckSignals() < 0) goto done;
        uint64_t pyramid = (uint64_t)state & sp.pyramid_full;
        int won = 0;
        if (step.removal) {
#ifdef WIDE
            int removed = P - __builtin_popcountll(pyramid) - __builtin_popcountll(cells_of(state) & sp.pyramid_full);
#else
            int removed = P - __builtin_popcountll(pyramid);
#endif
            if (removed > best) {
                best = removed;
                Py_DECREF(best_line);
                best_line = line_of(&sp, &st, state);
                if (!best_line) goto done;
            }
            won = is_won(&sp, state);
        }
        if (won) {
            line = line_of(&sp, &st, state);
            if (!line) goto done;
            break;
        }
        int expand;
        if (want_best) {
            /* search.win_or_best's promising(): one whose relaxed game clears the pyramid (strict
             * rules: best may be P with the stock still to clear), or one that can beat the best */
#ifdef WIDE
            int most = cells_answer(&sp, state, sp.reach_fn, 2, 0);
            expand = most < 0 ? -1 : most >= P || most >= best + 1;
#else
            uint64_t counts = bag_of(&sp, state);
            expand = reaches(&sp, pyramid, counts, P);
            if (expand == 0) expand = reaches(&sp, pyramid, counts, best + 1);
#endif
        } else {
            expand = step.removal ? hopeless(&sp, state) : 0;
            if (expand >= 0) expand = !expand;
        }
        if (expand < 0) goto done;
        if (!expand) {
            if (by_finish && seen_put(&seen, row, state) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            continue;
        }
        if (VERDICT_SUCCESSORS(&sp, state, scratch, room, &n) < 0) goto done;
        /* the rows of the positions to try, asked of memory together: the lookups are the search's
         * cost, each a cache miss in a table of millions of rows */
        for (int i = 0; i < n; i++) seen_prefetch(&seen, scratch[i].after);
        if (stack_push(&st, state, origin, scratch, n) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (pending && advance(&sp, pending) < 0) goto done;
    result = Py_BuildValue("(OiO)", line ? line : Py_None, best, best_line);
done:
    if (!result && kept && best_line) {
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        PyObject *most = PyLong_FromLong(best);
        if (!most || PyList_Append(kept, most) < 0 || PyList_Append(kept, best_line) < 0) PyErr_Clear();
        Py_XDECREF(most);
        PyErr_Restore(type, value, trace);
    }
    Py_XDECREF(line);
    Py_XDECREF(best_line);
    free(seen.rows);
    free(st.frames);
    free(st.steps);
    free(scratch);
    shapes_clear(&sp.shapes);
#ifdef WIDE
    needs_clear(&sp.needs);
#endif
    free(sp.bounds.rows);
    return result;
}


static PyMethodDef methods[] = {
    {"shortest", astar_shortest, METH_VARARGS,
     "shortest(params, start) -> the states of a shortest winning line from start, or None"},
    {"verdict", astar_verdict, METH_VARARGS,
     "verdict(params, start, best, want_best) -> (winning line's states or None, best removed, best line's states)"},
    {NULL, NULL, 0, NULL},
};

#ifdef WIDE
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_astar_wide",
                                    "The shortest search's inner loop in C, with free cells.", -1, methods};

PyMODINIT_FUNC PyInit__astar_wide(void) { return PyModule_Create(&module); }
#else
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_astar", "The shortest search's inner loop in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__astar(void) { return PyModule_Create(&module); }
#endif
