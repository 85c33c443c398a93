// Command battlesnake_official plays games through the official Battlesnake
// rules library (github.com/BattlesnakeOfficial/rules: its rulesets and maps,
// in the order its command-line tool runs them) with seeded random moves, and
// writes one JSON line per turn: the board after the turn and the moves that
// led to it. tests/games/test_snakes_official.py replays these files through
// our engine. Build it in GOPATH mode (the library and its maps package need
// only Go's standard library): see docs/battlesnake.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"

	"github.com/BattlesnakeOfficial/rules"
	"github.com/BattlesnakeOfficial/rules/maps"
)

type cell struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type snake struct {
	ID     string `json:"id"`
	Health int    `json:"health"`
	Body   []cell `json:"body"`
	Cause  string `json:"cause"`
	Turn   int    `json:"eliminated_turn"`
}

type line struct {
	Turn    int               `json:"turn"`
	Moves   map[string]string `json:"moves,omitempty"`
	Food    []cell            `json:"food"`
	Hazards []cell            `json:"hazards"`
	Snakes  []snake           `json:"snakes"`
	Over    bool              `json:"over"`
}

func cells(ps []rules.Point) []cell {
	out := make([]cell, 0, len(ps))
	for _, p := range ps {
		out = append(out, cell{p.X, p.Y})
	}
	return out
}

func snapshot(b *rules.BoardState, moves map[string]string, over bool) line {
	l := line{Turn: b.Turn, Moves: moves, Food: cells(b.Food), Hazards: cells(b.Hazards), Over: over}
	for _, s := range b.Snakes {
		l.Snakes = append(l.Snakes, snake{s.ID, s.Health, cells(s.Body), s.EliminatedCause, s.EliminatedOnTurn})
	}
	return l
}

var dirs = []string{"up", "down", "left", "right"}
var delta = map[string][2]int{"up": {0, 1}, "down": {0, -1}, "left": {-1, 0}, "right": {1, 0}}

// A move for each live snake: mostly one that stays on the board and off
// bodies (so games last), sometimes any move (so deaths of every kind occur).
func chooseMoves(b *rules.BoardState, r *rand.Rand, wrapped bool) map[string]string {
	busy := map[cell]bool{}
	for _, s := range b.Snakes {
		if s.EliminatedCause != "" {
			continue
		}
		for _, p := range s.Body[:len(s.Body)-1] {
			busy[cell{p.X, p.Y}] = true
		}
	}
	out := map[string]string{}
	for _, s := range b.Snakes {
		if s.EliminatedCause != "" {
			continue
		}
		if r.Intn(60) == 0 {
			out[s.ID] = dirs[r.Intn(4)]
			continue
		}
		var ok []string
		for _, d := range dirs {
			x, y := s.Body[0].X+delta[d][0], s.Body[0].Y+delta[d][1]
			if wrapped {
				x, y = (x+b.Width)%b.Width, (y+b.Height)%b.Height
			}
			if x < 0 || y < 0 || x >= b.Width || y >= b.Height || busy[cell{x, y}] {
				continue
			}
			ok = append(ok, d)
		}
		if len(ok) == 0 {
			ok = dirs
		}
		out[s.ID] = ok[r.Intn(len(ok))]
	}
	return out
}

func main() {
	ruleset := flag.String("ruleset", "standard", "ruleset name")
	mapName := flag.String("map", "standard", "map name")
	width := flag.Int("width", 11, "board width")
	height := flag.Int("height", 11, "board height")
	nsnakes := flag.Int("snakes", 4, "snakes")
	seed := flag.Int64("seed", 1, "the game's seed")
	turns := flag.Int("turns", 300, "turn limit")
	fsc := flag.Int("foodSpawnChance", 15, "")
	minFood := flag.Int("minimumFood", 1, "")
	damage := flag.Int("hazardDamagePerTurn", 14, "")
	shrink := flag.Int("shrinkEveryNTurns", 25, "")
	flag.Parse()

	settings := map[string]string{
		rules.ParamFoodSpawnChance:     fmt.Sprint(*fsc),
		rules.ParamMinimumFood:         fmt.Sprint(*minFood),
		rules.ParamHazardDamagePerTurn: fmt.Sprint(*damage),
		rules.ParamShrinkEveryNTurns:   fmt.Sprint(*shrink),
	}
	rs := rules.NewRulesetBuilder().WithSeed(*seed).WithParams(settings).
		WithSolo(*nsnakes < 2).NamedRuleset(*ruleset)
	gameMap, err := maps.GetMap(*mapName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rand.Seed(*seed) // the global stream, as the CLI seeds it (healing_pools draws from it)
	ids := make([]string, *nsnakes)
	for i := range ids {
		ids[i] = fmt.Sprintf("s%d", i)
	}
	b, err := maps.SetupBoard(gameMap.ID(), rs.Settings(), *width, *height, ids)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	over, b, err := rs.Execute(b, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	header := map[string]interface{}{"ruleset": rs.Name(), "map": *mapName, "width": *width,
		"height": *height, "seed": *seed, "settings": settings}
	enc.Encode(header)
	enc.Encode(snapshot(b, nil, over))
	r := rand.New(rand.NewSource(*seed * 7919))
	wrapped := *ruleset == "wrapped" || *ruleset == "wrapped_constrictor"
	for t := 0; t < *turns && !over; t++ {
		b, err = maps.PreUpdateBoard(gameMap, b, rs.Settings())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		moves := chooseMoves(b, r, wrapped)
		var sm []rules.SnakeMove
		for _, id := range ids {
			if m, ok := moves[id]; ok {
				sm = append(sm, rules.SnakeMove{ID: id, Move: m})
			}
		}
		var ended bool
		ended, b, err = rs.Execute(b, sm)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if ended {
			break // the game was over before this turn: nothing moved
		}
		b, err = maps.PostUpdateBoard(gameMap, b, rs.Settings())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		b.Turn++
		// the next pipeline's first stage decides whether the game is over
		over, _, _ = rs.Execute(b, []rules.SnakeMove{})
		live := 0
		for _, s := range b.Snakes {
			if s.EliminatedCause == "" {
				live++
			}
		}
		if *nsnakes >= 2 && *ruleset != "solo" {
			over = live <= 1
		} else {
			over = live == 0
		}
		enc.Encode(snapshot(b, moves, over))
	}
}
