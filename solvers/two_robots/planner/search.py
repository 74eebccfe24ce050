"""The search: every end state of the plays that may matter, scored or bounded, by branch and bound.

Part plays commute (a state is legal whenever a later one is, since fewer cards only widen the
energies a stack may take), so between two Attack cards each state is reached in one canonical order
(`Moves.part_moves`), and each distinct state is visited once. An Attack card that takes none of your
parts commutes with part plays too, so no part play follows it. A state with two robots ends the game,
so nothing is played after it. The turn's last part plays are scored in place, as light leaves
(`_leaves`). A state whose score, or whose every later state's (`Bounds.below_runner`), is below the
runner-up's is only counted (`Bar`): it can be neither the best plan, nor tie with it, nor be the
runner-up, the two plans an answer reports.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..factory import free_energies, possible_masks
from .moves import PartMoves
from .nodes import NAME_SHIFT, Candidate, Leaf, Node, Play, add_card, short_name
from .score import Bar, Score, win_score


class Search:
    """A part of `turn_planner.Planner`."""

    def search(self) -> list[Candidate | Leaf]:
        """The end states of the plays that may matter, with their score or an upper bound on it (the
        others are only counted, in `self.bar`). The seeds (`Seeds`) raise the runner-up first."""
        self._seen: set[tuple] = set()
        self._found: list[Candidate | Leaf] = []
        self.bar = Bar()
        self.seed_wins()
        self.seed_attacks()
        self.seed_parts()
        start = self.start
        no_parts, no_attacks = tuple(0 for _ in self.types), tuple(0 for _ in self.attack_types)
        self._visit(Node(stacks=start, infos=tuple(self.info(s) for s in start),
                         reaches=tuple(self.reach(s) for s in start) if self.cost else (), used=no_parts,
                         used_attacks=no_attacks, table=0, own_lost=0, free=self.start_free,
                         robots=sum(1 for s in start if self.info(s).names == self.full), seq=()))
        return self._found

    def _keep(self, state: Candidate) -> None:
        """Meet a state's exact score; keep the state when it may be reported."""
        if state.score is not None:
            self.bar.meet(state.score)
            if self.bar.keeps(state.score):
                self._found.append(state)

    def _visit(self, node: Node) -> None:
        """Score a state (unless its first terms are below the runner-up's already), then search the
        states one more play makes from it."""
        key = (tuple(sorted(node.stacks)), node.used, node.used_attacks, node.table, node.attacks_only)
        if key in self._seen:
            return
        self._seen.add(key)
        bar, stacks, infos, seq = self.bar, node.stacks, node.infos, node.seq
        plays, robots = len(seq), node.robots
        bar.states += 1
        if robots < 2 and bar.runner is not None and self.first_terms(
                stacks, infos, plays, robots, node.used_attacks, node.own_lost, node.table, node.free) < bar.runner[:6]:
            # as an end state it is below the runner-up already; the states after it may not be
            here = Candidate(score=None, order=None, tail=(), stacks=stacks, others=node.table, seq=seq)
        else:
            score, order, tail = self.exact_score(stacks, infos, plays, robots, node.used_attacks, node.own_lost,
                                                  node.table, node.free, node.reaches)
            here = Candidate(score=score, order=order, tail=tail, stacks=stacks, others=node.table, seq=seq)
            self._keep(here)
        if plays == self.t.actions or robots >= 2:
            return
        if bar.runner is not None and self.below_runner(infos, robots, plays, node.used_attacks, node.own_lost,
                                                        node.table):
            bar.cut += 1
            return
        if not node.attacks_only:
            masks = tuple(x.mask for x in infos)
            moves = self.part_moves(stacks, possible_masks(masks), free_energies(masks), node.used, node.adding,
                                    node.first)
            if plays + 1 == self.t.actions:
                self._leaves(here, node, robots, moves)
            else:
                for t, card, hand_index, where in moves:
                    for k in where:
                        self._visit(self._after_part(node, t, card, hand_index, k))
        if self.attack_types:
            self._after_attacks(node, robots)

    def _after_part(self, node: Node, t: int, card: int, hand_index: int, k: int | None) -> Node:
        """The node one part play (`Moves.part_moves`) makes."""
        grown, ni, nr = self.grow(node.stacks[k] if k is not None else None, card)
        used = node.used[:t] + (node.used[t] + 1,) + node.used[t + 1:]
        stacks, infos, reaches, full = node.stacks, node.infos, node.reaches, self.full
        robots = node.robots + (ni.names == full)
        if k is None:
            stacks, infos, reaches = stacks + (grown,), infos + (ni,), reaches + (nr,) if self.cost else ()
        else:
            robots -= infos[k].names == full
            stacks, infos = stacks[:k] + (grown,) + stacks[k + 1:], infos[:k] + (ni,) + infos[k + 1:]
            reaches = reaches[:k] + (nr,) + reaches[k + 1:] if self.cost else ()
        return Node(stacks=stacks, infos=infos, reaches=reaches, used=used, used_attacks=node.used_attacks,
                    table=node.table, own_lost=node.own_lost, free=node.free + 1, robots=robots,
                    seq=node.seq + (Play(hand_index=hand_index, stack=k),), adding=k is not None, first=t)

    def _after_attacks(self, node: Node, robots: int) -> None:
        """Search the states each Attack card play (`Moves.attack_moves`) makes. The turn's last play,
        when it leaves your factory as it is, is scored in place, like a leaf."""
        bar, actions, stacks, infos = self.bar, self.t.actions, node.stacks, node.infos
        last = len(node.seq) + 1 == actions
        for hand_index, used_attacks, strike in self.attack_moves(stacks, node.used_attacks, node.table):
            play = Play(hand_index=hand_index, attack=True, targets=strike.targets, freeze=strike.freeze)
            if last and strike.stacks is None:
                bar.states += 1
                if bar.runner is not None and self.first_terms(
                        stacks, infos, actions, robots, used_attacks, node.own_lost, strike.table,
                        node.free) < bar.runner[:6]:
                    continue
                score, order, tail = self.exact_score(stacks, infos, actions, robots, used_attacks, node.own_lost,
                                                      strike.table, node.free, node.reaches)
                self._keep(Candidate(score=score, order=order, tail=tail, stacks=stacks, others=strike.table,
                                     seq=node.seq + (play,)))
                continue
            # an Attack card that leaves your factory alone commutes with part plays (its targets and
            # its stack requirement only get easier with more parts down), so parts go first
            if strike.stacks is None:
                self._visit(Node(stacks=stacks, infos=infos, reaches=node.reaches, used=node.used,
                                 used_attacks=used_attacks, table=strike.table, own_lost=node.own_lost,
                                 free=node.free, robots=robots, seq=node.seq + (play,), attacks_only=True))
                continue
            after = strike.stacks
            after_infos = tuple(self.info(s) for s in after)
            self._visit(Node(stacks=after, infos=after_infos,
                             reaches=tuple(self.reach(s) for s in after) if self.cost else (), used=node.used,
                             used_attacks=used_attacks, table=strike.table, own_lost=node.own_lost + strike.own_lost,
                             free=sum(len(s[1]) for s in after if not s[0]),
                             robots=sum(1 for x in after_infos if x.names == self.full), seq=node.seq + (play,)))

    def _leaves(self, parent: Candidate, node: Node, robots: int, moves: Sequence[PartMoves]) -> None:
        """The states the turn's last part play makes, scored in place (`_leaf_scorer`). A play that
        finishes no robot leaves the first terms as they are (robots, and a robot to deploy, stay):
        once those are below the runner-up's, only the plays that finish a robot are scored, and the
        others are only counted (the runner-up only rises)."""
        bar, full = self.bar, self.full
        shared = self._leaf_shared(node, robots, len(parent.seq) + 1)
        first_new, first_add = shared[4], shared[5]
        finishes = {}   # stack -> the part name that would make it a robot
        for k, x in enumerate(node.infos):
            name = -1 if x.frozen else short_name(full ^ x.names)
            if name >= 0:
                finishes[k] = name
        runner = bar.runner
        if runner is not None and first_add < runner[:6] and (node.adding or first_new < runner[:6]):
            # every play that finishes no robot is cut from the start (a run that adds makes no new stack)
            todo = []
            for _, card, hand_index, where in moves:
                bar.states += len(where)
                if finishes:
                    name = card >> NAME_SHIFT
                    for k, n in finishes.items():
                        if n == name and k in where:
                            todo.append((card, hand_index, k))
            if todo:
                bar.states -= len(todo)
                score_leaf = self._leaf_scorer(parent, node, robots, shared)
                for card, hand_index, k in todo:
                    score_leaf(card, hand_index, k)
            return
        score_leaf = self._leaf_scorer(parent, node, robots, shared)
        runner, cut_new, cut_add = None, False, False
        for _, card, hand_index, where in moves:
            name = card >> NAME_SHIFT
            for k in where:
                if bar.runner is not runner:
                    runner = bar.runner
                    cut_new, cut_add = first_new < runner[:6], first_add < runner[:6]
                if cut_new if k is None else cut_add and finishes.get(k) != name:
                    bar.states += 1
                    continue
                score_leaf(card, hand_index, k)

    def _leaf_shared(self, node: Node, robots: int, plays: int) -> tuple:
        """What the states one part play after `node` makes share: (the `leaf_context` of a card added
        to a stack, of a new stack, whether the parts in unfrozen stacks pay for the Event, the robots
        that can be deployed (counted only for Event B, which needs one), and the first terms of a
        new stack and of an added card when they finish no robot)."""
        event, full, own_lost = self.t.event, self.full, node.own_lost
        n = len(node.stacks)
        same = self.leaf_context(n, plays, node.used_attacks, own_lost, node.table)
        grown_ctx = self.leaf_context(n + 1, plays, node.used_attacks, own_lost, node.table)
        pays = event == "none" or (node.free + 1 >= self.cost and (event == "active_robot" or self.t.powers_left >= 1))
        deployable = sum(1 for x in node.infos if x.names == full and not x.frozen) if event == "active_robot" else 0
        paid_as_is = event == "none" or (pays and (event == "power" or deployable > 0))
        return (same, grown_ctx, pays, deployable,
                (False, paid_as_is, robots, grown_ctx.wanted, -own_lost, grown_ctx.pressure),
                (False, paid_as_is, robots, same.wanted, -own_lost, same.pressure))

    def _leaf_scorer(self, parent: Candidate, node: Node, robots: int, shared: tuple
                     ) -> Callable[[int, int, int | None], None]:
        """A function that scores the state one part play (card, hand index, stack or None) after
        `node` makes, and keeps it as a `Leaf` when it may be reported. What the states share is
        worked out once (`_leaf_shared`); each only differs in one stack, and plays that leave the same
        facts on the same stack are scored once."""
        bar, full, event, found = self.bar, self.full, self.t.event, self._found
        stacks, infos, reaches, own_lost = node.stacks, node.infos, node.reaches, node.own_lost
        grow, shape_value, outs_bound, settle = self.grow, self.shape_value, self.outs_bound, self.settle
        plays = len(parent.seq) + 1
        same, grown_ctx, pays, deployable = shared[:4]
        parts_now = [x.names.bit_count() for x in infos] if event != "none" else []
        memo: dict[tuple, tuple] = {}

        def score_leaf(card: int, hand_index: int, k: int | None) -> None:
            _, ni, nr = grow(stacks[k] if k is not None else None, card)
            memo_key = (k, ni, nr)
            hit = memo.get(memo_key)
            if hit is None:
                robot = ni.names == full
                if k is None:
                    now, dep, ctx = robots + robot, deployable + robot, grown_ctx
                else:
                    old = infos[k]
                    was = old.names == full
                    now, dep, ctx = robots - was + robot, deployable - (was and not old.frozen) + robot, same
                paid = event == "none" or (pays and (event == "power" or dep))
                if now < 2 and bar.runner is not None and \
                        (False, paid, now, ctx.wanted, -own_lost, ctx.pressure) < bar.runner[:6]:
                    # its first terms are already below the runner-up's (robots only fall in a
                    # sacrifice): whatever the rest, it is not kept
                    memo[memo_key] = (None, None, None)
                    bar.states += 1
                    return
                if now >= 2:
                    won = win_score(now, plays)
                    hit = (won, won, None)
                elif event == "none" or not paid:
                    after = infos + (ni,) if k is None else infos[:k] + (ni,) + infos[k + 1:]
                    r, outs, progress = shape_value(tuple(sorted(after)))
                    score = Score(won=False, event=event == "none", robots=r, wanted=ctx.wanted,
                                  own_lost=-own_lost, pressure=ctx.pressure, outs=outs, ready=ctx.ready,
                                  progress=progress, kept=ctx.kept, plays=ctx.plays)
                    hit = (score, score, None)
                else:
                    counts = parts_now + [ni.names.bit_count()] if k is None else \
                        parts_now[:k] + [ni.names.bit_count()] + parts_now[k + 1:]
                    progress = tuple(sorted(counts, reverse=True))
                    reach_after = reaches + (nr,) if k is None else reaches[:k] + (nr,) + reaches[k + 1:]
                    # an upper bound: the sacrifice depends on the cards, not only on these facts,
                    # so each play works it out (`settle`, shared through `sacrifice_value`)
                    hit = (None, Score(won=False, event=True, robots=now, wanted=ctx.wanted,
                                       own_lost=-own_lost, pressure=ctx.pressure,
                                       outs=outs_bound(reach_after), ready=ctx.ready, progress=progress,
                                       kept=ctx.kept, plays=ctx.plays), ctx.kept_reqs)
                memo[memo_key] = hit
                if hit[2] is None:
                    bar.meet(hit[0])
            bar.states += 1
            score, order, kept_reqs = hit
            if kept_reqs is not None:
                # the sacrifice is worked out only while the bound can still reach the runner-up
                if not bar.keeps(order):
                    return
                grown = grow(stacks[k] if k is not None else None, card)[0]
                score = settle(order, stacks + (grown,) if k is None else
                               stacks[:k] + (grown,) + stacks[k + 1:], kept_reqs)
                if score is None:
                    return
                bar.meet(score)
            if score is not None and bar.keeps(score):
                found.append(Leaf(score=score, order=order, parent=parent, card=card, stack=k,
                                  hand_index=hand_index))

        return score_leaf

    def materialize(self, leaf: Leaf) -> Candidate:
        """The Candidate of a leaf (its stacks, the cards played last and its plays)."""
        p = leaf.parent
        if leaf.stack is None:
            stacks = p.stacks + ((False, (leaf.card,)),)
        else:
            stacks = p.stacks[:leaf.stack] + (add_card(p.stacks[leaf.stack], leaf.card),) + p.stacks[leaf.stack + 1:]
        tail = self.leaf_context(len(stacks), len(p.seq) + 1, self._used_attacks(p.seq), 0, p.others).tail
        return Candidate(score=leaf.score, order=leaf.order, tail=tail if not leaf.score.won else (), stacks=stacks,
                         others=p.others, seq=p.seq + (Play(hand_index=leaf.hand_index, stack=leaf.stack),))

    def score_all(self, found: list[Candidate | Leaf]) -> list[Candidate]:
        """The best state, the next three tied with it and the first runner-up, in that order (what a
        plan reports). Tied scores are in the order of the upper bound `evaluate` gives
        (`Candidate.order`), then in the search's; two ways to one state count once."""
        found.sort(key=lambda c: (c.score, c.order), reverse=True)
        scored: list[Candidate] = []
        seen: set[tuple] = set()
        for item in found:
            if len(scored) == 4 and item.score == scored[0].score:
                continue
            c = self.materialize(item) if isinstance(item, Leaf) else item
            key = (tuple(sorted(c.stacks)), tuple(sorted(p.hand_index for p in c.seq)), c.others)
            if key in seen:
                continue
            seen.add(key)
            scored.append(c)
            if c.score < scored[0].score:
                break
        return scored

    def _used_attacks(self, seq: Sequence[Play]) -> tuple[int, ...]:
        idx = {p.hand_index for p in seq if p.attack}
        return tuple(sum(1 for i in a.hand_indices if i in idx) for a in self.attack_types)
