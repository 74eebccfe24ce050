"""Players' words for things the rulebooks name differently, and the words a search can ignore.

Applied to the question only: each word of a question becomes "the word OR its synonyms", so a
player who types "cop" also finds "oppressor". Multi-word alternatives are searched as phrases.
Keys are lowercase single words (or two-word phrases in PHRASES); stemming (porter) already
covers plurals and verb endings, so only true vocabulary gaps are listed.
"""
from __future__ import annotations

# Words that carry no meaning in a rules question. Kept short on purpose: "any", "one", "same",
# "each", "first", "end", "after", "before", "again", "twice" and numbers all matter in these games.
STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "the", "i", "me", "my", "mine", "we", "us", "our", "you", "your", "yours", "it", "its",
    "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing", "done", "can",
    "could", "should", "would", "will", "shall", "may", "might", "must", "what", "whats", "what's",
    "which", "who", "whom", "whose", "how", "why", "when", "where", "there", "here", "if", "then", "than",
    "so", "to", "of", "in", "on", "at", "by", "for", "with", "from", "and", "or", "but", "as", "that",
    "this", "these", "those", "have", "has", "had", "having", "im", "i'm",
    "it's", "dont", "don't", "doesnt", "doesn't", "didnt", "didn't", "isnt", "isn't", "cant",
    "can't", "cannot", "wont", "won't", "arent", "aren't", "happen", "happens", "happened", "mean",
    "means", "work", "works", "rule", "rules", "about", "into", "just", "also", "really",
    "like", "please", "pls", "plz", "ok", "okay", "hey", "yo", "u", "ur", "r", "y", "tell", "explain", "explained",
    "know", "want", "need", "say", "says", "said",
    # the frame of a question, not its topic ("is that allowed", "still", "right away", "someone else")
    "allowed", "legal", "possible", "able", "still", "anymore", "ever", "even", "else", "some",
    "someone", "somebody", "something", "anyone", "anybody", "anything", "they", "them", "their",
    "theirs", "he", "she", "his", "her", "him", "hers", "come", "comes", "came", "way", "ways",
    "thing", "things", "much", "many", "while", "now", "yet", "too", "very", "actually", "though",
    "anyway", "whatever", "wait", "hmm", "lol", "ya", "yeah", "yes", "wat", "wut", "gonna", "wanna", "gotta",
    "ive", "i've", "we're", "youre", "you're", "theyre", "they're", "let", "lets", "guys", "folks",
    "instead", "right", "away", "besides", "halfway", "through", "onto", "up", "without",
    # "time" alone is the frame of a question ("what time", "every time", "first time playing"); the rules'
    # own uses are phrases, looked up first ("same time", "time limit")
    "time",
    # "is it going to ...": the frame of a question about what will happen ("going first" is a phrase)
    "going",
    # what a player feels or heard about the rule, the frame as "know" and "say" are ("why bother keeping
    # dupes", "my friend swears ...", "i wonder if", "not sure"); never a rule's topic ("think" is: Think Tank)
    "bother", "swear", "swears", "swore", "reckon", "reckons", "insist", "insists", "thinks", "thought",
    "sure", "wonder", "wondering", "wondered",
    # ... or what they forgot ("i forgot how search works", "remind me the phases"): no entry's topic; mending a slip
    # ("forgot to place my poster") is read from the whole question (MISHAP_PATTERN), not from these words
    "forgot", "forget", "forgotten", "forgetting", "remind", "reminder", "remember", "recall",
    # the form the player wants the answer in, not its topic ("in a nutshell", "setup checklist"); "nobody" is
    # "somebody" denied, the frame of who may do it ("the objective cards nobody drew")
    "nutshell", "checklist", "briefly", "basically", "nobody", "noone",
    # ... and the asking itself, words no entry uses ("defense cards rundown", "confused about the event phase",
    # "quick question regarding ..."): left in, each weighs as a word no entry has and sinks the right answer
    "rundown", "summarize", "summarise", "recap", "question", "questions", "confused", "confusing", "clarify",
    "understand", "curious", "regarding", "query", "unsure", "details", "detail",
    # ... and the talk around it: greetings, thanks, apologies, who asks and when, a dispute at the table ("sorry if
    # this is obvious", "noob here", "settle a debate: ...", "thx"), words no entry uses, or not so
    "hello", "hi", "hiya", "thanks", "thank", "thx", "ty", "cheers", "sorry", "dumb", "stupid", "silly", "obvious",
    "obviously", "noob", "newbie", "newb", "dude", "bro", "honestly", "seriously", "apparently", "supposedly",
    "maybe", "probably", "correct", "asking", "told", "arguing", "argue", "argued", "argument", "debate", "stuck",
    "group", "tonight", "yesterday", "weekend", "help", "true", "settle", "pardon", "appreciate", "appreciated",
    "lawyer", "disagree", "disagreement", "dispute", "friendly", "greetings", "oops", "mom", "dad", "wife", "husband",
    # (the chat's exclamations and asides: "wtf does that mean", "omg", "tbh", "bruh")
    "wtf", "omg", "lmao", "lmfao", "bruh", "ugh", "tbh", "smh", "ffs", "jeez", "geez",
    # who else is at the table ("my brothers pile", "my gf is on my team"): another player, as "wife" and "husband"
    # are; no rule is about the person ("friend" is not here: a Friendship card; "kid" is not: the younger players'
    # variant; "buddy" is not: "so a cop can't get to my buddy" asks what no book answers, and the word says so)
    "brother", "brothers", "sister", "sisters", "gf", "bf", "girlfriend", "boyfriend", "son", "daughter", "cousin",
    "roommate",
    # ... and "guy" for anyone ("the guy finishing after me"), as "guys" and "folks" are (a pawn by its colour is a phrase)
    "guy",
    # what the player expects or how they play it at home ("as usual", "what's supposed to be in the box", "a huge
    # chain"): the frame, not the rule ("normal" is not: "a normal inventor" is one of the base game)
    "usual", "usually", "supposed", "huge",
    # the texting spellings of stop words ("halfway thru an action"): "through", "though", "because"
    "thru", "tho", "altho", "cuz", "coz", "cos",
})

# words of the asking that an entry's word would otherwise take for its own ("quick question about defense cards":
# the Encounter Quick Reference Table is not asked about; "i think" is no Think Tank; "rules check" no check of
# encounters): dropped from the question, all of them
FRAME_PHRASES: frozenset[tuple[str, ...]] = frozenset({
    ("quick", "question"), ("quick", "q"), ("real", "quick"), ("i", "think"), ("we", "think"), ("rules", "check"),
    ("rule", "check"), ("am", "i", "wrong"), ("asking", "for", "a", "friend"),
})

# who at the table says or thinks a rule ("my friend says attack cards cannot ...", "my brother swears ..."): the
# person and the verb are the frame of a claim to check, not its topic (a friend is also a Friendship card)
CLAIMANTS: frozenset[str] = frozenset({
    "friend", "friends", "buddy", "mate", "pal", "brother", "sister", "bro", "sis", "gf", "bf", "girlfriend",
    "boyfriend", "partner", "kid", "kids", "son", "daughter", "wife", "husband", "cousin", "roommate", "dad", "mom",
    "uncle", "aunt", "teammate", "opponent", "neighbour", "neighbor", "coworker", "colleague"})
CLAIM_VERBS: frozenset[str] = frozenset({
    "says", "said", "say", "thinks", "think", "thought", "claims", "claimed", "swears", "swore", "reckons", "insists",
    "insisted", "told", "tells", "argues", "argued", "believes"})

# words of a sum: a question made of numbers and these asks nothing about a game ("what is 2 plus 2")
ARITHMETIC: frozenset[str] = frozenset({"plus", "minus", "times", "divided", "equals", "multiplied"})

# words that make a question about Tablebot itself: its readings then rank with the rules
APP_WORDS: frozenset[str] = frozenset({
    "tablebot", "app", "planner", "solver", "odds", "calculator", "calculate", "calculates", "page",
    "screen", "button", "grid", "star", "starred", "heatmap", "heat", "suggestion", "suggestions", "suggest",
    # the rulebooks give no chances: a question about them asks what Tablebot works out
    "chance", "chances", "probability", "likely",
    "reads", "reading", "interpret", "interprets", "assume", "assumes", "lookahead", "forecast", "model",
})

# a game named in the question (as words): its entries come first
GAME_NAMES: dict[tuple[str, ...], str] = {
    ("rise", "of", "the", "robotariat"): "robotariat",
    ("robotariat",): "robotariat",
    ("raising", "robots"): "raising-robots",
    ("raising", "robot"): "raising-robots",
    ("two", "robots"): "two-robots",
    ("2", "robots"): "two-robots",
    ("tworobots",): "two-robots",
}

# a game's whole name as one group of a question ("two robots": the other names are taken out of the question)
GAME_NAME_PHRASES: frozenset[str] = frozenset(" ".join(name) for name in GAME_NAMES)

# player word -> what the rulebooks call it (words or phrases); the word itself is always kept
SYNONYMS: dict[str, tuple[str, ...]] = {
    # scoring
    "points": ("vp", "vps", "victory point", "score"),
    "point": ("vp", "victory point", "score"),
    "pts": ("vp", "points", "score"),
    "vp": ("points", "victory point"),
    "vps": ("points", "victory point"),
    "score": ("vp", "points", "scoring"),
    "winner": ("win", "winning"),
    "won": ("win",),
    "victory": ("win",),
    "lose": ("fail", "lost", "loss"),
    "lost": ("fail", "lose"),
    "loss": ("fail", "lose"),
    "tie": ("tiebreak", "tied"),
    "tiebreaker": ("tie",),
    # doing a thing again is answered by the rule that says how often: "once per game", "once a round"
    "twice": ("once", "again"),
    "again": ("once", "twice"),
    # the direction of play: the books say which player is next, or that they do not name a direction
    "clockwise": ("direction", "turn order"),
    "counterclockwise": ("direction", "turn order"),
    "anticlockwise": ("direction", "turn order"),
    # a step on a board of spaces joined by lines
    "diagonally": ("black line", "adjacent", "step"),
    "diagonal": ("black line", "adjacent", "step"),
    # "below zero", "at zero": the books write 0
    "zero": ("0",),
    "negative": ("below 0",),
    # a Search "turns over" cards; players say they reveal or flip them
    "reveal": ("turn over", "turned over", "flip"),
    "revealed": ("turn over", "turned over", "flip"),
    # the four basic resources: a competition about resources names none of them
    "sensor": ("resource",),
    "sensors": ("resource",),
    "gear": ("resource",),
    "gears": ("resource",),
    "microchips": ("microchip", "resource"),
    "programs": ("program", "resource"),
    # "what number is on ...": the books say value
    "numbers": ("value", "values"),
    # winning Reputation back is what the book says is hard
    "regain": ("win back", "get back"),
    "recover": ("win back", "get back"),
    # what a player earns the books say they gain or win ("earn reputation back")
    "earn": ("gain", "win", "get"),
    # an NPC that arrives on a space moves onto it: that starts an encounter
    "arrives": ("moves onto", "encounter", "enters"),
    "arrive": ("moves onto", "encounter", "enters"),
    "backstory": ("bio", "story", "background"),
    "lore": ("bio", "story", "background"),
    # the NPC Entry token is a wooden triangle, and players call it that
    "triangle": ("entry token", "npc entry"),
    # the Friendship Cards drawn and not kept: players call them leftovers or rejects
    "leftover": ("unused", "discard"),
    "leftovers": ("unused", "discard"),
    "rejects": ("unused", "discard"),
    "rejected": ("unused", "discard"),
    # "EOR": end of round, where the Round End abilities resolve in the order you choose
    "eor": ("end of round", "round end"),
    "eog": ("end of game", "game end"),   # the same shorthand for the end of the game
    # table slang: a duplicate Part, a character (a Salvager, an inventor)
    "dupe": ("duplicate",),
    "dupes": ("duplicate",),
    "dup": ("duplicate",),
    "dups": ("duplicate",),
    # shortened words of card games: an attack, a Salvager, an upgrade
    "atk": ("attack",),
    "salv": ("salvager",),
    "salvs": ("salvager",),
    "upg": ("upgrade",),
    "upgs": ("upgrade",),
    "char": ("character",),
    "chars": ("character",),
    "endgame": ("game end", "end of the game"),
    "final": ("game end", "end"),
    # Raising Robots
    "juice": ("energy", "battery"),
    "bot": ("robot",),
    "bots": ("robot",),
    "friend": ("friendship",),
    "friends": ("friendship",),
    "comp": ("competition",),
    "comps": ("competition",),
    "contest": ("competition",),
    "tape": ("duct tape",),
    "dt": ("duct tape",),   # players shorten the resource's two words to their letters, as VP
    "chip": ("microchip",),
    "chips": ("microchip",),
    "wildcard": ("wild",),
    "batt": ("battery",),
    "batts": ("battery",),
    "res": ("resource",),
    "stuff": ("resource",),
    "materials": ("resource",),
    "build": ("assemble", "built"),
    "built": ("assemble", "build"),
    "building": ("assemble", "build"),
    "tutor": ("search",),
    "dig": ("search",),
    "look": ("search", "reveal"),
    "find": ("search",),
    "hourglass": ("game end",),
    "rainbow": ("any row", "multicolour"),
    "multicolor": ("multicolour",),
    "color": ("colour", "type", "energy"),
    "colour": ("color", "type", "energy"),
    "colors": ("colour", "type", "energy"),
    "colours": ("color", "type", "energy"),
    "combo": ("loop", "chain", "activation"),
    "infinite": ("loop",),
    "trigger": ("activate", "activation"),
    "prize": ("reward",),
    # "what do I get for ..." asks for the reward or the gain
    "get": ("gain", "reward", "receive", "take"),
    "gets": ("gain", "reward", "receive", "take"),
    "got": ("gain",),
    "getting": ("gain",),
    "payout": ("reward",),
    "requirement": ("criteria", "criterion"),
    "requirements": ("criteria", "criterion"),
    "req": ("criteria", "requirement"),
    "condition": ("criteria",),
    "claim": ("complete",),
    "achieve": ("complete",),
    "finish": ("complete",),
    "price": ("cost", "pay"),
    "spend": ("pay", "cost"),
    "character": ("inventor", "salvager"),
    "characters": ("inventor", "salvager"),
    "hero": ("character", "inventor", "salvager"),
    "school": ("class",),
    "marker": ("token", "achievement"),
    "ai": ("neutral", "solo"),
    "automa": ("neutral", "solo"),
    "single": ("solo",),
    "1p": ("solo",),
    "2p": ("2 player", "two player", "2 players"),
    "col": ("column",),
    # Rise of the Robotariat
    "cop": ("oppressor", "human"),
    "cops": ("oppressor", "human"),
    "police": ("oppressor", "human"),
    "guard": ("oppressor", "human"),
    "guards": ("oppressor", "human"),
    "human": ("oppressor",),
    "humans": ("oppressor",),
    "civvie": ("civilian",),
    "civvies": ("civilian",),
    "civ": ("civilian",),
    "civs": ("civilian",),
    "civvy": ("civilian",),   # the other spelling of civvie
    "civvys": ("civilian",),
    "money": ("spark", "funds"),
    "cash": ("spark", "funds"),
    "coins": ("spark", "funds"),
    "dollars": ("spark", "funds"),
    "bucks": ("spark", "funds"),
    "rep": ("reputation",),
    "dice": ("die",),
    "die": ("dice",),
    "roll": ("dice", "die"),
    "flyer": ("poster",),
    "flyers": ("poster",),
    "trash": ("junk",),
    "scrapyard": ("scrap yard",),
    "ducktape": ("duct tape",),  # the two words typed as one ("is ducktape a wild")
    "donation": ("donate", "contribution"),
    "donations": ("donate", "contribution"),
    "fined": ("fine",),
    "tax": ("fine",),
    "mission": ("objective",),
    "role": ("objective", "secret"),
    "traitor": ("turncoat",),
    "coop": ("cooperative",),
    "co": ("cooperative",),
    "walk": ("move", "step"),
    "move": ("step",),
    "spaces": ("space", "location"),
    "location": ("space",),
    # Two Robots
    "freeze": ("frozen",),
    "frozen": ("freeze",),
    "ice": ("frozen", "freeze"),
    "hp": ("health",),
    "life": ("health",),
    "lives": ("health",),
    "kill": ("destroy", "damage"),
    "hurt": ("damage",),
    "dmg": ("damage",),
    # a play that "eats" an action uses one, or counts toward the cards a turn allows
    "eat": ("use", "count", "cost"),
    "eats": ("use", "count", "cost"),
    # money "in one pot" is shared by everyone
    "pot": ("shared", "share"),
    # a robot's "bits" are its parts (Part cards)
    "bits": ("parts",),
    "pile": ("stack",),
    "piles": ("stack",),
    "sac": ("sacrifice",),
    "dual": ("hybrid",),
    "double": ("hybrid", "twice"),
    "discard": ("discard", "cleanup"),
    "nuke": ("nuclear",),
    "chem": ("chemical",),
    "elec": ("electrical",),
    "electric": ("electrical",),
    "bodypart": ("part",),
    "ability": ("power", "abilities"),
    "skill": ("ability", "power"),
    "special": ("ability",),
    "setup": ("set up",),
    "start": ("setup", "set up", "begin"),
    "begin": ("start", "setup"),
    # players, people
    "ppl": ("players", "player"),
    "people": ("players",),
    "person": ("player",),   # a person at the table is a player ("aim it at just one person")
    "persons": ("players",),
    "everyone": ("all", "every"),
    "everybody": ("all", "every"),
    "1st": ("first",),
    "2nd": ("second",),
    "3rd": ("third",),
    # numbers as words and as digits
    "one": ("1",),
    "two": ("2",),
    "three": ("3",),
    "four": ("4",),
    "five": ("5",),
    "six": ("6",),
    "seven": ("7",),
    "eight": ("8",),
    "nine": ("9",),
    "ten": ("10",),
    "2": ("two",),
    "3": ("three",),
    "4": ("four",),
    "5": ("five",),
    "6": ("six",),
    "7": ("seven",),
    # limits
    "max": ("maximum", "limit", "most"),
    "maximum": ("max", "limit"),
    "limit": ("maximum", "max"),
    "min": ("minimum",),
    "cap": ("maximum", "limit"),
    # doing things: "use" a space or a robot is to activate it, "feed" a part is to sacrifice it
    "use": ("activate", "activation"),
    "using": ("activate", "activation"),
    "feed": ("sacrifice",),
    "lonely": ("lone", "alone"),
    "lone": ("alone",),
    "alone": ("solo", "lone"),
    "itself": ("alone", "lone"),
    "beat": ("defeat", "knock out", "eliminate"),
    "beating": ("defeat", "knock out", "eliminate"),
    "defeat": ("knock out", "eliminate"),
    "every": ("all", "each"),
    "skip": ("without", "leave out", "not use"),
    "hit": ("affect", "reach", "damage"),
    "hits": ("affect", "reach", "damage"),
    "used": ("spent", "use"),
    "fewer": ("less", "count", "number"),
    "pick": ("choose",),
    "picks": ("choose",),
    "choose": ("pick",),
    "show": ("reveal", "hidden", "secret", "public"),
    "others": ("other players",),
    "stop": ("end",),
    "stops": ("end",),
    "boost": ("increase",),
    "flip": ("reveal", "turn over", "turned over"),
    "blow": ("destroy",),
    "blown": ("destroy",),  # the irregular forms, which stemming does not bring back to "blow"
    "blew": ("destroy",),
    "explode": ("destroy",),
    "wreck": ("destroy",),
    "finished": ("complete", "completed"),
    "put": ("place", "play"),
    "enemy": ("opponent",),
    "opponent": ("enemy",),
    "lay": ("place", "play"),
    "laying": ("place", "play"),
    "peek": ("look",),
    "full": ("completely", "filled", "complete"),
    "easy": ("simple", "simpler"),
    "easier": ("simple", "simpler"),
    "simplest": ("simple", "simpler"),
    "land": ("encounter", "moves onto"),
    "lands": ("encounter", "moves onto"),
    "meet": ("encounter",),
    "meets": ("encounter",),
    "bump": ("encounter",),
    "bumps": ("encounter",),
    "flipped": ("flip", "reveal", "turn over", "turned over"),
    "go": ("move",),
    "spot": ("space",),
    "spots": ("space",),
    "hold": ("hand",),
    "holding": ("hand",),
    "tall": ("height",),
    "sideways": ("horizontally",),
}

# past tenses stemming does not reach (porter leaves "drew" and "took" as they are): the verb the books use
# ("got" is left out: at the table it is mostly "have", "i got 3 vp")
IRREGULAR: dict[str, str] = {
    "drew": "draw", "drawn": "draw", "took": "take", "taken": "take", "paid": "pay", "gave": "give",
    "given": "give", "chose": "choose", "chosen": "choose", "kept": "keep", "held": "hold", "lost": "lose",
    "spent": "spend", "sold": "sell", "bought": "buy", "threw": "throw", "thrown": "throw", "ran": "run",
    "went": "go", "dealt": "deal", "shot": "shoot", "stole": "steal",
    "stolen": "steal", "built": "build", "began": "begin", "begun": "begin", "met": "meet", "found": "find",
    "brought": "bring", "caught": "catch", "stood": "stand", "fell": "fall", "fallen": "fall", "sent": "send",
}

# two-word player phrases -> what the books call them (checked before single words)
PHRASES: dict[tuple[str, str], tuple[str, ...]] = {
    # an ability "kicks in" when it starts working
    ("kick", "in"): ("start", "take effect", "timing"), ("kicks", "in"): ("start", "take effect", "timing"),
    # the pawns by their colour ("a black guy on the sabotage spot"): black ones are the Human Oppressors, red ones the
    # Civilian Robots
    ("black", "guy"): ("human oppressor", "oppressor"), ("black", "guys"): ("human oppressor", "oppressor"),
    ("red", "guy"): ("civilian robot", "civilian"), ("red", "guys"): ("civilian robot", "civilian"),
    # the middle of the game ("halfway" alone is the middle of an action, "halfway thru a robot action")
    ("halfway", "point"): ("halfway", "break"), ("halfway", "mark"): ("halfway", "break"),
    ("end", "game"): ("game end",),
    ("game", "over"): ("game end",),
    ("set", "up"): ("setup",),
    ("two", "player"): ("2 player", "2p"),
    ("two", "players"): ("2 player", "2p"),
    ("2", "player"): ("2p", "two player"),
    ("2", "players"): ("2p", "two player"),
    ("1", "player"): ("solo",),
    ("one", "player"): ("solo",),
    ("hand", "limit"): ("hand limit", "seven cards", "hand size"),
    ("first", "player"): ("first player", "goes first"),
    ("round", "end"): ("round end", "end of round"),
    ("wild", "card"): ("wild",),
    ("robot", "card"): ("robot card",),
    ("scrap", "yard"): ("scrap yard",),
    # the two sides of a Competition Tile, however they are called
    ("a", "side"): ("a side",),
    ("b", "side"): ("b side",),
    ("back", "side"): ("b side",),
    ("front", "side"): ("a side",),
    ("turn", "over"): ("flip",),
    ("turns", "over"): ("flip",),
    ("run", "into"): ("encounter",),
    ("runs", "into"): ("encounter",),
    ("by", "itself"): ("alone", "lone"),
    ("keep", "intact"): ("dismantle", "break"),
    ("hand", "size"): ("hand limit", "cards in hand"),
    ("the", "box"): ("components",),
    ("right", "away"): ("immediately",),
    ("someone", "else"): ("opponent", "enemy", "other player"),
    ("someone", "elses"): ("opponent", "enemy", "other player"),
    ("another", "player"): ("opponent", "other player"),
    ("another", "players"): ("opponent", "other player"),
    ("come", "with"): ("components", "box"),
    ("comes", "with"): ("components", "box"),
    ("goes", "first"): ("first player", "goes first", "turn order"),
    ("go", "first"): ("first player", "goes first", "turn order"),
    ("going", "first"): ("first player", "goes first", "turn order"),
    ("counter", "clockwise"): ("direction", "turn order"),
    # "do we go round clockwise", "which way does it go around": the direction of play, not a game round
    ("go", "round"): ("direction", "turn order"),
    ("go", "around"): ("direction", "turn order"),
    ("who", "makes"): ("designer", "publisher", "design", "published"),
    ("less", "than"): ("below", "fewer", "under"),
    # "who made the game": its designers and publisher
    ("who", "made"): ("designer", "publisher", "design", "published"),
    ("who", "designed"): ("designer", "publisher", "design"),
    ("heat", "map"): ("heat map", "heatmap"),
    ("have", "to"): ("must", "required", "may", "optional"),
    ("walks", "onto"): ("encounter", "moves onto"),
    ("walk", "onto"): ("encounter", "moves onto"),
    ("moves", "onto"): ("encounter", "moves onto"),
    ("goes", "into"): ("encounter", "moves onto", "enters"),
    ("lands", "on"): ("encounter", "moves onto"),
    ("land", "on"): ("encounter", "moves onto"),
    ("just", "1"): ("exactly", "only one"),
    ("just", "one"): ("exactly", "only one"),
    ("only", "1"): ("exactly", "only one"),
    ("not", "my"): ("out of turn", "opponent's turn", "someone else's turn", "outside your own turn"),
    ("used", "up"): ("spent", "used up"),
    ("house", "rules"): ("house rule", "variant", "variation"),
    ("house", "rule"): ("variant", "variation"),
    ("same", "time"): ("simultaneously", "at once", "together"),
    ("how", "long"): ("duration", "minutes", "playing time"),
    # "player count" is the board gamers' word (a box's "1-6 players") for how many may play
    ("player", "count"): ("player count", "how many players", "number of players"),
    ("time", "limit"): ("timer", "minutes"),
    # "how old" asks an age (a player's, the game's), not about the older printings some entries compare
    ("how", "old"): ("age", "ages"),
    # the cards a player did not pick are the ones not kept: the book's "unused", which go to a discard pile
    ("didnt", "pick"): ("unused", "discard", "don't keep"),
    ("didnt", "take"): ("unused", "discard", "don't keep"),
    ("didnt", "keep"): ("unused", "discard", "don't keep"),
    ("not", "picked"): ("unused", "discard", "don't keep"),
    ("not", "chosen"): ("unused", "discard", "don't keep"),
}

# a word that means more next to another word of the question: a "flipped tile" is its B-side
CONTEXT_SYNONYMS: dict[str, dict[str, tuple[str, ...]]] = {
    # "pass turns to the left": the direction of play ("cards left" is what remains)
    "left": {w: ("direction", "clockwise") for w in ("turn", "turns", "pass", "passes", "order")},
    "flipped": {"tile": ("b side",), "tiles": ("b side",)},
    "flip": {"tile": ("b side",), "tiles": ("b side",)},
    "flips": {"tile": ("b side",), "tiles": ("b side",)},
    # a secret goal is a secret objective ("goal" alone is the game's: its Overview, Two Robots' Objective)
    "goal": {"secret": ("objective",), "hidden": ("objective",)},
    "goals": {"secret": ("objective",), "hidden": ("objective",)},
}

# ... except where "left" is what remains ("how many turns are left", "turns left in the round")
LEFT_REMAINS_BEFORE: frozenset[str] = frozenset({"are", "is", "have", "has", "got", "any", "still", "anything", "nothing"})
LEFT_REMAINS_AFTER: frozenset[str] = frozenset({"in", "to", "until", "till", "before", "this", "over"})

# a word that means more right before another: another or an extra copy of a robot's Part (Two Robots' HEAD, ARMS,
# a part) is a duplicate ("drew another arms"; "from one stack to another" is no copy). The Part's own word stays a
# word of the question (it tells Two Robots from the other games)
NEXT_SYNONYMS: dict[str, dict[str, tuple[str, ...]]] = {
    w: {part: ("duplicate",) for part in ("part", "parts", "head", "heads", "arms", "arm")}
    for w in ("another", "extra", "second", "spare")
}

# "can I have 3 ...", "more than", "up to": the question asks about a limit
LIMIT_WORDS: tuple[str, ...] = ("maximum", "max", "limit", "at most", "up to", "never more", "no more than")
_NUMBER = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
LIMIT_PATTERNS: tuple[str, ...] = (
    rf"\b(?:have|hold|keep|own|get|got|play)(?: more than)? {_NUMBER}\b",
    r"\bup to\b",
    # "how many friendship cards can i have": how many one may hold at once, a limit
    r"\bhow many (?:\w+ ){1,3}(?:can|may) (?:i|we|you|a player|one) (?:have|hold|keep|own)\b",
)
NUMBER_WORDS = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"

# the five Two Robots energies: two of them joined by a slash ("chem/solar") are a Hybrid Part
ENERGIES: frozenset[str] = frozenset({"chemical", "chem", "electrical", "elec", "electric", "mechanical",
                                      "nuclear", "nuke", "solar"})

# The shape of a question, read from its words (after folding, as `index.words` gives them).
# A question for the whole list or an overview: the section's main entry answers it, not one card of it.
LIST_PATTERNS: tuple[str, ...] = (
    r"\blist\b", r"\boverview\b", r"\ball (?:the )?\w+s\b", r"\bwhat are the\b", r"\bwho are the\b",
    r"\bwhich \w+s are there\b", r"\bhow (?:does|do) (?:the )?\w+(?: \w+){0,2} work$",
)
# A question for what a card, character or ability does: its printed text. Where the entry about it says
# that text is printed in no source (keyword TEXTS_UNKNOWN), no rulebook answers the question. `subject` is the
# thing whose text is asked ("what does precision strike do to the other player": precision strike).
# "what does X do": what X does, which X's own entry says (when it has one) even where its printed text is nowhere
# ("what do i do if ...", "what do we do now" ask what the rules have players do: no thing's text)
# "what's printed on X": what X shows, which X's own entry says as "what does X do" (the layout of a competition tile)
PRINTED_ON_PATTERN = r"\bwhat(?:s| is| are| r)? printed on (?P<subject>.+)"
DOES_PATTERN = r"\bwhat (?:does|do|did) (?!(?:i|we|you|they|u|ya|players?|everyone|everybody)\b)(?P<subject>.+) do\b"
TEXT_PATTERNS: tuple[str, ...] = (
    DOES_PATTERN, r"\beffects? of\b", r"\bcard text\b", r"\bwhat does .+ give\b",
    r"\bhow much (?:spark |money |vp |points )?does .+ give\b",
    # "adjust traffic reports card effect", "samurai katana ability text": the printed words asked for by name
    r"\b(?:card|ability|power|event) (?:effects?|text|wording)\b",
    # "what does the yo-yo card actually say", "exact wording of ...", "word for word": a card's printed words asked
    # for as words ("what does the rulebook say about ties" asks a rule, not a printed text)
    r"\bwhat (?:does|do|did) (?!(?:the |my |our |your |this |that )?(?:rule ?book|book|manual|faq|rules?|app)\b)(?P<subject>.+) say\b",
    r"\bexact (?:text|wording|words)\b", r"\bword for word\b", r"\bwhat (?:is |s )?written on (?P<subject>.+)",
    # the story of a named one ("the story behind mr postman"): its flavour text, printed in the book, not in Tablebot
    r"\b(?:back)?story (?:behind|of) (?P<subject>.+)",
    r"\b(?:text|wording) (?:on|of) (?P<subject>.+)", r"\b(?:actual|which) (?:\w+ ){0,2}(?:are |is )?printed on (?P<subject>.+)",
    r"\bwhat (?:\w+ ){1,2}(?:are|is) printed on (?P<subject>.+)", PRINTED_ON_PATTERN,
    # what a named piece holds ("which objectives are on confucius's scroll board"): an honest entry about that piece
    # answers it as printed nowhere known (only where such an entry holds the piece's name: see index._unanswerable)
    # (what the piece shows, not a number on it: "what number is on the back of a salvager card" asks the turn order)
    r"\b(?:what|which) (?:objectives?|goals?|actions?|abilities|ability|icons?|symbols?|powers?|effects?|missions?) (?:are|is|r) (?:on|printed "
    r"on) (?P<subject>.+)",
    r"\b(?:what|which) (?:are|r) the (?:objectives|goals|actions|abilities|missions) on (?P<subject>.+)",
    r"\b(?:what|which) (?:objectives|goals|actions|missions) (?:does|do) (?P<subject>.+?) (?:have|show|hold|list)\b",
    # a name and the word alone ("weapons jammed effect"): that thing's printed words
    r"^(?P<subject>\w+(?: \w+){0,3}) (?:effect|effects)$",
)
# ... and, on the question as typed (possessive kept), a named one's own ability ("scavenger's special ability",
# "ada's inventor ability") or story ("electric eye's backstory"): its printed words again ("special ability" alone is a rule of Two Robots: when
# abilities are used)
# ... but when or how often one may use it is a rule of its own ("when can i use my salvager's ability")
USE_TIMING_PATTERN = r"\b(?:when|how often|how many times)\b.*\buse\b"
POSSESSIVE_TEXT_PATTERNS: tuple[str, ...] = (r"(?P<subject>\w+)'s (?:\w+ ){0,2}abilit(?:y|ies)\b",
                                              r"(?P<subject>\w+)'s (?:back)?(?:story|bio|lore)\b")
# A question for a strategy opinion: the rulebooks rarely give one, so only an entry that itself gives
# advice (keyword "strategy" or "advice": the book's own tip, or how Tablebot ranks moves) answers it.
OPINION_PATTERNS: tuple[str, ...] = (
    r"\bbetter\b", r"\bbest\b", r"\bstrongest\b", r"\bweakest\b", r"\bshould (?:i|we)\b", r"\bworth it\b",
    r"\boptimal\b", r"\bgood idea\b", r"\brecommend\w*\b", r"\badvice\b", r"\bstrategy\b",
    r"\btips?\b", r"\b(?:smarter|wiser|smartest)\b",
    r"\bworth (?!(?:any|no|some)thing\b)\w+ing\b",  # "is it worth going for robo race early" ("what is it worth", "worth anything" ask a value)
    # what usually happens, a good opening: the table's experience, which no book gives (in the parts of
    # tests/rules/data/eval, 11 and 7 such questions, none covered)
    # ("which way do the cops usually go, blue or yellow" asks the rule that picks the path: a die, Rolling for
    # movement)
    # (where the NPCs usually go, and how many rounds a game usually lasts, are rules: the die picks the path, Rolling
    # for movement; the round track)
    r"^(?!(?=.*\b(?:which|what) (?:way|ways|path|paths|direction|arrows?|colou?red arrows?)\b|.*\bwhere (?:do|does)\b|.*\b"
    r"(?:go|goes|follow|follows|move|moves|walk|walks|take|takes)\b)(?=.*\b(?:cops?|oppressors?|civilians?|civvies|civvie|"
    r"npcs?|red robots?|black pieces?|police)\b)|.*\bhow many rounds\b)(?=.*\b(?:usually|typically)\b)",
    r"\bgood (?:opening|first|move|start|combo|plan|choice|pick)\b",
    r"\bopening (?:move|turn)s?\b", r"\bopener\b",
)
# A verdict on the game's pieces: their balance ("is william too strong", "alice smith is broken right", "op") or a
# ranking of them by strength, difficulty or fun ("strongest salvager", "is spy the hardest objective"). The books
# give none, and Tablebot's advice ranks a player's moves, not the pieces: no entry answers it. In every part of
# tests/rules/data/eval each such question is one no book answers ("lowest number goes first" and "the worse side"
# are rules: "lowest", "worse" are not here).
VERDICT_PATTERNS: tuple[str, ...] = (
    r"\btoo (?:strong|weak|good|powerful)\b", r"\b(?:broken|overpowered|underpowered|imbalanced|unbalanced)\b", r"(?<!\bco )\bop\b",
    r"\b(?:strongest|weakest|easiest|hardest|toughest|simplest|trickiest|funnest|overrated|underrated)\b",
    r"\bmost (?:fun|powerful|useful|annoying)\b",
    # the game's balance at a player count, or as a whole ("is it balanced for 2 players"): a verdict no book gives
    r"\bbalanced (?:for|with|at|in) (?:a |just |only )?(?:\d|two|three|four|five|six|solo|2p|3p|4p|5p)\b",
    r"\b(?:is|are) (?:it|the game|this game|this|two robots|raising robots|robotariat|the (?:characters|salvagers|inventors"
    r"|objectives)) (?:well |really |actually |even )?balanced\b",
    # one piece weighed against another, not what happens when two meet or one blocks the other
    r"^(?!.*\b(?:meets?|block|blocks|cancels?|beats?|fines?|attacks?|defen[cs]es?|go(?:es)? through|search)\b).*(?:"
    r"\b(?:which|who)(?: one| of (?:them|the two))?(?: \w+)? (?:is|are) (?:stronger|weaker|more powerful|less powerful)\b|"
    r"\b(?:stronger|weaker|more powerful|less powerful) than\b)",
)
# A question for a printed value of a thing (its VP, a cost, how many): where that thing is named only in a
# worked example, in passing, no entry prints the value.
VALUE_PATTERNS: tuple[str, ...] = (
    r"\bvp\b", r"\bvictory points?\b", r"\bpoints?\b", r"\bcosts?\b", r"\bworth\b", r"\bprice\b",
    r"\bhow (?:many|much)\b",
)
# A thing passed from one player to another (trade, give, lend, swap): no rulebook has players hand each other
# anything, so only an entry about such a passing (its title or keywords name it: Nikola's cube swaps) answers
# it. In every part of tests/rules/data/eval each such question is one no book answers.
# ("can i hand one ... to my buddy": "hand" after a subject or "to" is the verb, not the cards in hand; a buddy, a
# mate, a spouse is another player at the table as a friend is)
TRANSFER_PATTERN = (r"\b(?:give|gives|gave|trade|trades|trading|lend|loan|swap|swaps|pass|share|sell|handed|"
                    r"(?:i|we|you|to|can|could|may) hand)\b.*"
                    r"\b(?:to|with|between)\b.*\b(?:another player|other players?|friends?|teammates?|partners?|"
                    r"buddy|buddies|mates?|pals?|wife|husband|spouse|"
                    r"someone|somebody|anyone|each other|one another|players|opponents?|brothers?|sisters?|kids?|"
                    r"sons?|daughters?|dad|mum|mom)\b|"
                    # the recipient first ("hand my partner a part card", "give my teammate a card from my hand")
                    r"\b(?:give|gives|gave|lend|loan|pass|sell|hand)\s+(?:my|our|his|her|their)\s+"
                    r"(?:teammates?|partners?|team ?mates?|friends?|buddy|mates?|brother|sister|wife|husband|kid)\b"
                    r"(?!\s+(?:card|cards|robot|robots|inventor|ability|token|tokens)\b)")
TRANSFER_WORDS: frozenset[str] = frozenset({"give", "trade", "lend", "swap", "share", "pass"})
# Putting a slip right (a step forgotten, a card played by mistake, a move taken back, a die off the table): no
# rulebook says how, so the reply is "not covered" with the book's scope entry on mistakes first. In every part of
# tests/rules/data/eval each question of this shape is one no book answers (14 of 14; "knocked my stack over" is
# labelled with the Two Robots scope entry, which says the same). "forgot" alone is not one: "i forgot how search works"
# asks the rule; "forgot to ..." and "forgot my ..., can i still ..." ask to mend a slip.
MISHAP_PATTERN = (r"\b(?:forg[eo]t(?:ten)? to|forgot (?:my|his|her|their|our) \w+(?: \w+){0,3} (?:can|could) "
                  r"(?:i|we|they|he|she) (?:still|now|do|use|take|claim|get)|oops|accidentally|by accident|by mistake|mistakenly|"
                  r"misplayed|misclick\w*|take (?:it|that|this|them|my move|a move|a turn|my turn) back|takeback|"
                  r"take back (?:a|my|the|that) (?:move|turn|play)|take back (?:a|the|my) \w+ (?:i|we) (?:just )?"
                  r"(?:played|placed|put|built)|(?:can|could|may) (?:i|we|you) undo|undo (?:it|that|this|my last|the last|my move|my turn)|"
                  r"knocked (?:over|off)|knocked \w+ \w+ over|(?:rolled|rolls|fell|falls|bounced|bounces|bounce) off|"
                  # a die that lands crooked, or a step the table forgot and would now go back to do
                  r"(?:landed|lands|landing) (?:crooked|cocked|tilted|on (?:its|an|the) edge)|cocked dice?|"
                  r"(?:forgot|forgotten|forget|skipped|missed) (?:the|a|an|my|our|his|her|their) (?:\w+ ){0,3}(?:turn|phase|"
                  r"step|ability|bonus|action|event|round end)\b.*\b(?:go back|(?:do|take|claim|get|use) (?:it|that|them) "
                  r"(?:now|late|later|next)|make (?:it|that) up)|"
                  r"(?:on|in|into|onto|to) the wrong (?:space|spot|place|row|column|side|stack|pile|slot)|"
                  r"how (?:do|can|should) (?:we|i) (?:fix|correct) (?:it|that|this)|just (?:noticed|reali[sz]ed)|"
                  # a piece spoiled, or the table's state forgotten ("kid spilled juice on a card", "bumped the board and we
                  # don't remember where the civilian was"): the books never say ("torn", "ripped" are their posters')
                  r"spill(?:ed|t)? (?:\w+ ){0,3}(?:on|onto|all over) (?:the |a |an |my |our |his |her )?(?:\w+ ){0,2}(?:cards?|"
                  r"board|table|pieces?|box|tokens?|sheets?|boards?)|bumped (?:the|our) (?:board|table)|(?:dont|don t|do not|"
                  r"cant|can t|cannot|can not) remember (?:where|which|what|who)\b(?: \w+){0,5} (?:was|were|stood|had been|went)|"
                  r"nobody remembers|unreadable|smudged)\b")
# ... and a turn to redo, beside a slip (a re-roll or a phase run again is the game's: "with mt rho do i redo both dice")
REDO_PATTERN = (r"^(?=.*\b(?:forgot|wrong|mistake|messed|missed|skipped|accident\w*|oops|misread|screwed|too (?:many|much|few)|"
                r"peeked)\b).*\b(?:do|should|must) (?:we|i) (?:redo|replay|start over|do (?:it|that|this) over)\b")
# ("take back" alone is the rules' word for returning a piece, "take back your phase cards"; "undo" alone a card's
# effect, "does sabotage undo an upgrade"; "i forgot the rule, can ..." asks the rule: none of them is a slip)
MISHAP_KEYWORD = "by mistake"  # the keyword of each book's scope entry on mistakes ("take back" also means a return)
# A rule of the table's own making ("house rule: ...", "does that break anything"): only a book that suggests house
# rules answers (Two Robots' Variations); elsewhere the reply is "not covered" with the book's scope entry that
# names house rules first. In every part of tests/rules/data/eval each such question about a book without house
# rules is one no book answers (5 of 5).
HOUSE_RULE_PATTERN = (r"\b(?:house rules?|homebrew|home rules?|(?:we|us)\b.*\b(?:let|allow|change|make)\b.*\bbreak "
                      r"(?:anything|the game)|"
                      # a change the table wants for a longer or a quicker game ("deal 2 per type for a longer game")
                      # (asked as a change: "how much spark for a longer game" asks the book's own setting)
                      r"(?:can|could|should|may) (?:we|i)\b.*\b(?:for|to make it|make it) a (?:longer|shorter|quicker|faster|"
                      r"quick|short) (?:game|match)|(?:want|like|prefer) (?:longer|shorter|quicker|faster) (?:games|matches)\b"
                      r".*\b(?:ok to|okay to|can we|could we|allowed to|fine to))\b")
HOUSE_RULE_KEYWORD = "house rules"  # the keyword of a scope entry that says its book weighs no house rule
# Looking at what another player holds or drew, or at a deck's hidden cards ("can i peek at another player's hand", "do
# i have to show everyone what i drew", "look at the top card before drawing"): answered only by an entry about what
# is secret or public among the first three (its keywords say so: SECRECY_WORDS). In the parts of
# tests/rules/data/eval this shape is 1 covered question (secret objectives, answered so) against 7 no book answers.
# Only another player's things or what they drew: a deck's top cards are looked at by rules (Raising Robots' Search),
# and "do i reveal the card i drew" asks a rule about one's own card.
PEEK_PATTERN = (r"\b(?:peek|peak|look at|looking at|see|show|reveal)\b.*\b(?:(?:their|his|her|your|opponents?|other players?|"
                r"another players?|each others?|everyone(?:s| elses?)|(?:someone|somebody|anyone|anybody) ?elses?) (?:\w+ )?(?:hands?|"
                r"cards?|sheets?|objectives?)|"
                r"each others?|other players?|another players?|(?:they|he|she) drew)\b|"
                # a peek is never allowed by a rule; a deck's top card looked at before one draws it; showing the whole
                # table what one drew or found (no book says either way)
                r"\b(?:peek|peak)\b|\btop cards? (?:\w+ ){0,3}before (?:drawing|i draw|we draw|you draw)\b|"
                r"\bshow (?:it |them )?(?:to )?(?:everyone|everybody|the (?:table|others|other players))\b.*\b(?:drew|found|draw)\b|"
                # ... or one's own hand shown of one's own will (no book says either way)
                r"\b(?:show|reveal|flash)\b(?: \w+){0,3} my (?:whole |entire )?hand\b|\bmy hand (?:public|open|face up)\b")
SECRECY_WORDS: frozenset[str] = frozenset({"secret", "hidden", "public", "private", "peek", "sees"})
# Telling the table what one saw of a hidden deck, or putting its top cards in another order ("can electric eye tell
# everyone what's on top", "can she rearrange the top 2"): an ability that looks (an entry with PEEK_WORDS, leading the
# results) says neither; only an entry about what is secret or public (its keywords: SHARING_WORDS) answers. (Telling
# what one guessed, or what card one used, is a rule of its own: the Spy's, the Power cards'.)
SHARE_PATTERN = (r"\b(?:tell|telling|share|announce|say|show|let)\b(?: \w+){0,2} (?:everyone|everybody|the others|the other "
                 r"players|other players|the table|the group|one player|another player)\b(?: know)?(?: \w+){0,3} (?:what|which|"
                 r"whats)\b(?: \w+){0,4} (?:saw|seen|sees|on top|top cards?|peeked|looked)\b|\bshow (?:\w+ ){0,2}(?:the )?top "
                 r"(?:\w+ ){0,2}cards?\b|\b(?:rearrange|reorder|re order)\b(?: \w+){0,3} top\b|\btop (?:\w+ ){0,3}cards?\b"
                 r"(?: \w+){0,3} (?:in a different order|in another order)\b"
                 # ... or puts the cards it looked at back in an order of its choosing
                 r"|\b(?:put|puts|place|places|return|returns|stack|stacks)\b(?: \w+){0,4} back (?:on top )?in (?:a different|"
                 r"another|any|her own|his own|their own|whatever|the order (?:she|he|they|i) (?:want|wants|like|likes))\b(?: order)?")
PEEK_WORDS: frozenset[str] = frozenset({"peek"})  # ("look" is also a Search's: "look through deck")
SHARING_WORDS: frozenset[str] = frozenset({"secret", "hidden", "public", "private"})
# How long a game takes: no rulebook Tablebot holds prints a playing time (6 questions of the parts of
# tests/rules/data/eval, none answered by a book); an entry with the keyword PLAYTIME_KEYWORD would answer it.
# "how long does a game take" asks the clock; "how long does a game last" is as often its rounds, which the books give
# (the round track): only "take", and never beside rounds or turns (PLAYTIME_NOT)
PLAYTIME_PATTERN = (r"\bhow long (?:does|do|will|would|is|are) (?:\w+ ){0,4}(?:games?|sessions?)(?: \w+){0,4} take\b|"
                    r"\bplay(?:ing)? time\b|\bhow many (?:minutes|hours)\b|\b(?:minutes|hours|mins)\b")
PLAYTIME_NOT = r"\b(?:rounds?|turns?)\b"
PLAYTIME_KEYWORD = "playing time"
# what a book says when a deck runs out is in an entry whose keywords say so; an entry that is only about the deck
# (the Sabotage space, the Upgrade cards) does not answer it
RUN_OUT_KEYWORDS: tuple[str, ...] = ("run out", "runs out", "empty deck", "deck empty", "reshuffle")
# Another game named as the one a rule comes from or goes to ("like in two robots", "used in rise of the robotariat"):
# under a game filter, the page's book does not say how another game plays nor how to mix the two (in the parts of
# tests/rules/data/eval, 7 such questions, none covered; a game named alone, "setup for two robots", is its own page's)
# ("two robots" is as often two of one's robots, "play with two robots in a slot": it names the game only as "the two
# robots game", "two robots rules" or "like (in) two robots")
CROSS_GAME_PATTERN = (r"\b(?:like|in|from|into|than|with) (?:the )?(?P<game>rise of the robotariat|robotariat|raising robots?)\b|"
                      r"\blike (?:in )?(?:the )?(?P<game2>two robots)\b|\b(?P<game3>two robots) (?:game|rules?|rulebook|box)\b")
# The player's own device (its screen dimming, its battery or charger, the wifi password): no rulebook nor entry of
# Tablebot's is about it, though "screen" reads as a question about the app and a phone's "battery" as a resource
DEVICE_PATTERN = (r"\b(?:phone|tablet|ipad|iphone|android|(?:my|the|phone|phones) screen)\b.*\b(?:dims?|dimming|brightness|"
                  r"battery|charger|charge|charging|rotate|reset|stay on|sleep|volume|password)\b|\b(?:wifi|wi fi)\b|"
                  r"\b(?:phone|tablet|ipad) charger\b")
# A player leaving a game midway ("someone has to leave halfway, what about their robot"): no book says what becomes of
# their pieces; the scope entry on mishaps and house rules says so, as for a slip (asks_mishap)
# (a person must leave: a piece leaving a space, or a Salvager knocked out of the game, is the game's own)
LEAVE_PATTERN = (r"^(?!.*\b(?:health|hp|power cards?|eliminated|knocked out|out of the game|dead|dies?|civilians?|cops?|"
                 r"oppressors?|npcs?|meeples?|objectives?|cards? )\b)"
                 r".*\b(?:(?:someone|somebody|(?:a|one|another|the other) player|player|one of (?:us|the players|our players|our group)|(?:my|our|a|his|her) "
                 r"(?:friend|mate|buddy|wife|husband|kid|son|daughter|brother|sister|partner|mom|mum|dad|cousin|uncle|aunt|"
                 r"nephew|niece|roommate|girlfriend|boyfriend|grandma|grandpa|guest)|he|she|they|i|we) (?:has|have|had|needs?|"
                 r"wants?) to (?:leave(?! (?:the |a |this |that |my |our |his |her )?(?:\w+ )?(?:space|spot|office|square|area|path|"
                 r"row|column|stack|yard)\b)|go home|go(?= (?:early|after round|after the (?:first|second|third) round|halfway|half way|mid))|"
                 r"quit)(?: (?:the game|the table|early|after round \w+|after (?:the )?"
                 r"(?:first|second|third) round|halfway|half way|mid ?game|mid-game|in the middle))?|(?:quits?|leaves|left|"
                 r"drops? out|dropped out) (?:the game |the table )?(?:halfway|half way|mid ?game|mid-game|early|in the middle|"
                 r"partway)|(?:quits?|leaves|left|drops? out|dropped out) (?:the game|the table) after (?:round \w+|the (?:first|"
                 r"second|third) round)|"
                 # ... or gives the game up (a thing forfeited is the game's: "do i forfeit my draw", "forfeit a part")
                 r"(?:i|we|someone|somebody|a player|one of us|he|she|they|you)\b(?: \w+){0,3} (?:concede|forfeit|resign|"
                 r"surrender)(?:s|ed|ing)?\b(?! (?:a|an|my|the|their|his|her|our|your|its|it|to|if|when|unless)\b))")
# The players' age the game suits ("what age is it for", "ok for my 7 year old"): printed on the box, in no rulebook
# nor fact here (a question about an easier way to play with a child is answered: only the age itself is asked here)
AGE_PATTERN = (r"^(?!.*\b(?:variants?|simpler|easier|easy mode|beginner|learning|first game|co-?op|cooperative|without|"
               r"leave out|drop|kids? version|modules?|mode)\b).*"
               r"\b(?:(?:what|which|minimum|min|recommended|right|good) age|(?:ok|okay|good|fine|suitable|too hard|too "
               r"complicated) for (?:a |an |my |his |her |their )?(?:\d+ ?(?:yo|yr olds?|year olds?|years? old)|age))\b")
# The box as a product, not its rules ("who did the art", "is it still in print, where can i buy it", "does the expansion
# fit in the base box", "how much did the kickstarter raise"): no book and no fact here gives any of it (who designed
# each game is a public fact Tablebot holds, so designers are left out)
_A_GAME = "(?:" + "|".join(sorted(GAME_NAME_PHRASES, key=len, reverse=True)) + ")"  # a game by its name
# ("illustrated", "reprinted", "buy", "order", "organizer" and "fit" are also the games' and their books' words: "the
# illustrated example", "where do we buy new robots", "order spare tokens", "the wild card organizer robot")
PUBLISHING_PATTERN = (r"\b(?:who (?:did|drew|made|painted|illustrated) (?:the |all the )?(?:art|artwork|illustrations?|drawings?|"
                      r"cards?|robots?|characters?|board|box|pictures?)|(?:the )?(?:artists?|illustrators?) (?:of|for|behind)|who (?:is|was|were) the (?:artists?|illustrators?)|(?:still|back) in print|out of print|"
                      r"(?:chance of|plans? for|news (?:of|on)|any) (?:a )?reprint|(?:be|get|being) reprinted|where (?:can|could|"
                      r"should) (?:i|we|you|one) (?:still |even |actually )?(?:buy|order|purchase|get) (?:it|a copy|another copy|the (?:game|expansion|"
                      r"box|friends expansion|base game)|this game|" + _A_GAME + r")|(?:buy|order|purchase) (?:a |another |a second |a new )copy|kickstarter(?: \w+){0,3} (?:raise|raised|"
                      r"make|made|backers?)|(?:money|backers?|pledges?) (?:\w+ ){0,3}kickstarter|(?:raise|raised|cost|pledge|"
                      r"price) on kickstarter|fits? (?:in|into|inside) the (?:base|original|core|first|big) (?:game )?box|"
                      r"box inserts?|box organi[sz]ers?|organi[sz]er (?:for (?:the|this) (?:box|game)|insert)|"
                      # ... its later printings and their changes, an official FAQ or errata (the first edition's
                      # stickers and the older Robotariat pieces are the books' and the facts': "first edition", "older")
                      r"(?:second|2nd|third|3rd|new|newer|later|latest|updated|revised|next) (?:printing|edition|print run)s?|"
                      r"(?:kickstarter|retail|deluxe|ks) (?:edition|version)s? (?:\w+ ){0,2}(?:different|differ|changes?|changed)|"
                      r"(?:different|differs?|differences?|changes?|changed) (?:\w+ ){0,3}(?:kickstarter|retail|deluxe|ks) (?:edition|version)s?|"
                      r"official (?:faq|errata)|errata|"
                      # ... the sleeves its cards fit (no book nor fact gives a card's size: 16 such questions in
                      # tests/rules/data/eval, none covered)
                      r"(?:card )?sleeves?|sleeving|sleeved|"
                      # ... its price, its year, a next expansion, with a word of the shop or the news: "how much does it
                      # cost to unlock", "how much is the game end bonus", "cards from another expansion" are the games'
                      r"how much (?:does|do|did|would) (?:this|the|a) (?:whole |friends |base |core )?(?:game|expansion|box|"
                      r"copy) (?:cost|go for|sell for|retail)|how much (?:does|did|is) " + _A_GAME + r"(?: cost)?$|how much (?:is|are) (?:this|the|a) (?:whole |friends |base |core )?"
                      r"(?:game|expansion|box|copy) (?:in (?:shops|stores)|online|new|now|these days)|(?:retail )?price of "
                      r"(?:the |this |a )?(?:game|expansion|box|copy|" + _A_GAME + r")|msrp|(?:what year|when) (?:did|was|were) "
                      r"(?:the |this )?(?:(?:\w+ )?(?:game|expansion|box)|" + _A_GAME + r") (?:come out|released|release|published|"
                      r"launched)|release (?:date|year)|(?:is|are|will) there (?:gonna |going to )?(?:be )?(?:another|a new|a "
                      r"third|a next|any more|more|future) expansions?|(?:another|a new|the next|next|future|more) expansions? "
                      r"(?:coming|planned|announced|in the works|on the way)|any (?:news|word|plans?) (?:on|of|about|for) (?:a |an "
                      r"|the )?(?:new|another|next|third|future) expansions?)\b")
# How a solo game's AI opponents play ("how do the solo ai opponents pick their phases", "does the ai get friendship
# cards"): the Friends book only says solo is played against two AIs (a public fact); how they play is in the base
# game's book, which Tablebot does not hold. Only the opponents of a solo game ("the ai" alone is as often Tablebot's
# advice, "how does the ai choose alice smith's path"), and not the Friends module's neutral rival (it flips tiles and
# takes Upgrade tokens off the Round Tracker: Solo / 2P Gameplay Changes)
SOLO_AI_PATTERN = (r"^(?!.*\b(?:how many (?:ai|ais|automa)|competitions?|comps?|tiles?|upgrade tokens?|round tracker|rival|"
                   r"flips?|odds|tablebot|app|suggest\w*)\b)(?=.*\b(?:solo|automa|ai (?:opponents?|players?|bots?)|(?:two|2|"
                   r"both) ais)\b)(?:.*\b(?:ai|ais|automa)\b(?: (?:opponents?|bots?|players?))?(?: \w+){0,3} (?:take|takes|"
                   r"choose|chooses|pick|picks|do|does|play|plays|get|gets|score|scores|race|races|work|works|decide|"
                   r"decides|turns?|use|uses|assemble|assembles|build|builds)\b|.*\b(?:how|what) (?:do|does) (?:the )?"
                   r"(?:solo )?(?:ai|ais|automa)\b|.*\bsolo (?:mode )?(?:ai|bots?|automa)\b(?: \w+){0,3} (?:do|does|take|use|"
                   r"assemble|build|get|score)\b)")
# Two players in the same role ("can two of us play the same salvager"): each book has each player pick one, and none
# says whether two may pick the same one (there is one card, sheet or board of each)
SAME_ROLE_PATTERN = (r"\b(?:two|2|both|multiple|several) (?:of us|players|people|ppl|persons)\b(?: \w+){0,4} "
                     r"(?:play|pick|choose|take|be|use|have|run)s? (?:as )?the same (?:character|salvager|inventor)s?\b|"
                     # ... nor one player in two roles, nor two boxes played as one
                     r"\b(?:one|a single|1) (?:person|player|of us|guy)\b(?: \w+){0,2} (?:runs?|running|plays?|playing|"
                     r"controls?|controlling|takes?|handles?) (?:two|2|both) (?:robots?|characters?|salvagers?|inventors?|"
                     r"seats?|hands?|players?)\b|\b(?:two|2) (?:copies|boxes|sets)\b(?: of (?:the )?game)?(?: \w+){0,4} "
                     r"(?:players?|people|of us)\b|\b(?:combine|combining|combined|mix|mixing|merge|merging) (?:two|2) (?:copies|"
                     r"boxes|sets)\b")
# ... nor two players wanting the same named one ("can 2 ppl both play samurai", "two of us want uberbot, who gets him"):
# the name is one of ROLE_NAMES or a character's or inventor's entry (index.py reads those names off the entries)
SAME_NAMED_ROLE_PATTERN = (r"\b(?:two|2|both)\b(?: of us| ppl| people| players| persons)?(?: both)? (?:(?:want|wants|wanna)"
                           r"(?: to (?:be|play|pick|take|choose))?|play|plays|pick|picks|take|takes|choose|chooses|be) (?:as )?"
                           r"(?P<name>[a-z0-9]+)\b")
# the five Salvagers of Two Robots (its Setup names them; no entry is a Salvager's own)
ROLE_NAMES: frozenset[str] = frozenset({"samurai", "scavenger", "peacemaker", "guardian", "apocalypse"})
# One's own hand shown, or kept hidden, of one's own will ("am i allowed to show my cards to another player", "do i have
# to keep my robot cards hidden", "show everyone which upgrade i picked"): no book says either way (an entry on what is
# public says only that hand sizes and discards are; a secret objective is the Robotariat's rule, asked apart)
OWN_HAND_PATTERN = (r"^(?!.*\b(?:objectives?|roles?|secret cards?|hand size|how many cards)\b).*(?:"
                    r"\b(?:show|reveal|flash)\b(?: \w+){0,4} my (?:whole |entire )?(?:hand|cards)\b|"
                    r"\blet (?:\w+ ){1,5}(?:see|look at) my (?:whole |entire )?(?:hand|cards)\b|"
                    r"\bkeep (?:it|them|my (?:\w+ ){0,4}(?:hand|cards?|pick|choice))(?: \w+){0,2} (?:hidden|secret)\b|"
                    r"\bhidden from (?:the )?(?:others|everyone|everybody|table|other players)\b|"
                    r"\b(?:show|tell) (?:everyone|everybody|the table|the others|the other players) (?:which|what) "
                    r"(?:\w+ ){0,2}(?:i|we) (?:picked|chose|took|kept|got)\b)")
# A player joining a game already under way ("a friend shows up after round 1, can she join in"): no book says, as for
# one who leaves (LEAVE_PATTERN)
JOIN_LATE_PATTERN = (r"^(?=.*\b(?:join|joins|joining|jump in|hop in|sit in|get in)\b)(?=.*\b(?:late|later|midway|mid ?game|"
                     r"mid-game|halfway|half way|partway|in the middle|already (?:started|going|under way)|after (?:round "
                     r"\w+|the (?:first|second|third) round))\b)")
# Who a story is about ("whats guardians backstory", "is there backstory for uberbot"): a book tells only the stories
# it tells (Robotariat's characters, Two Robots' setting); one about no entry that names its subject is told nowhere
STORY_PATTERNS: tuple[str, ...] = (
    r"\b(?P<subject>[a-z0-9]+(?: [a-z0-9]+)?)s? (?:backstory|back story|lore|bio|story)\b",
    r"\b(?:backstory|back story|lore|bio|story) (?:of|for|behind) (?:the )?(?P<subject>[a-z0-9]+(?: [a-z0-9]+)?)\b",
)
# ... the words that name no one ("the backstory of this game", "whats the lore")
STORY_NOT_SUBJECT: frozenset[str] = frozenset({"the", "whats", "what", "is", "a", "any", "this", "game", "games", "world",
                                               "characters", "character", "each", "their", "its", "full", "real",
                                               "there", "some", "of", "for", "whole", "tell", "me", "about", "here",
                                               "ones", "one", "everyone", "robots", "robot", "humans", "setting",
                                               "anywhere", "anyone", "in", "on", "to"})
BIO_KEYWORD = "bio"  # the keyword of an entry on a book's character bios

# ... nor which of two players acting at the same moment goes first ("two of us both want to search at round end, who
# goes first", "we both broke a rule today, who goes first"): each book orders one player's own steps, or the seats,
# never two players at once (two pieces meeting, "a cop and a civ both move in", are the books' own)
PLAYERS_AT_ONCE_PATTERN = (r"\b(?:we both|both of us|the two of us|two of us|2 of us|two players|2 players|two ppl|2 ppl|"
                           r"two people|2 people)\b.*\bwho (?:\w+ ){0,3}first\b")
# Words that say what a question asks (a value, a count), not of what: a question asked before is about the same thing
# as another only if they share a word beside these (index.py, asked.py: "how many vp is the robo race worth" and "how
# many vp is the oz robot worth" share only their shape)
VALUE_WORDS: frozenset[str] = frozenset({"worth", "value", "values", "valu", "cost", "costs", "point", "points", "vp",
                                         "vps", "many", "much", "number", "numbers", "total", "amount", "price"})
# Deals between players ("can we make deals, you leave expo to me", "dont attack me and i wont attack you"): no book
# speaks of promises or bargains at the table (in the parts of tests/rules/data/eval, 2 such questions, neither covered;
# "deal" alone is a card dealt, "whats the deal with")
DEAL_PATTERN = (r"\b(?:make|making|made|strike|cut) (?:a |any |some )?(?:deals?|bargains?|pacts?|promises?)\b|\bdeal ?making\b|"
                r"\bnegotiat\w*|\bbrib(?:e|es|ed|ing)\b|\b(?:form|make) (?:an )?alliances?\b|"
                r"\b(?:dont|don t|do not) attack me and (?:i|ill|i ll) (?:wont|won t|will not|not)\b")
# Putting back a first hand one does not like and drawing again ("is there a mulligan", "can i redraw if my first 3 are
# all attacks"): no book has one (10 such questions in the parts of tests/rules/data/eval, none covered)
MULLIGAN_PATTERN = (r"\bmulligan\w*|\bredraw\b(?: \w+){0,3} (?:first|opening|starting) (?:\w+ )?(?:hand|cards?|draw|3|three)\b|"
                    r"\b(?:first|opening|starting) (?:hand|cards?|draw|3|three)\b(?: \w+){0,6} (?:redraw|draw again|new hand)\b")
# Throwing cards away of one's own will ("can i discard whenever i want", "toss extra cards even tho im under 7"): Two
# Robots discards only down to the hand limit at cleanup or as a card's cost, and says nothing of a free discard
FREE_DISCARD_PATTERN = (r"^(?!.*\b(?:have to|must|down to|hand limit|resolves?|friendship|friends?|search|sacagawea|"
                        r"meltdown|nothing)\b)(?=.*\b(?:can|may|could|allowed)\b)"
                        r".*\b(?:discard|toss|ditch|dump)(?:ing)?\b(?: \w+){0,5} (?:whenever|any ?time|mid[- ]?turn|in the "
                        r"middle of (?:my|a|the) turn|if i do ?n[o']?t (?:want|need)|to (?:cycle|dig)|even (?:tho|though|if) "
                        r"(?:i'?m|im|i am) under)\b")
# A playtest prototype or a promotional piece ("what did the propaganda deck do in the prototype", "kickstarter promo
# robot"): no book speaks of either; each book's scope entry with the keyword PROTOTYPE_KEYWORD says so
PROTOTYPE_PATTERN = (r"^(?!.*\b(?:starting (?:rep|reputation)|rep|reputation|poster tokens?|stickers?|office drone|posterchild|"
                     r"dropped)\b).*"
                     r"\b(?:prototypes?|playtest(?:ing|ers?)?|(?:kickstarter|ks|backer) (?:promos?|exclusives?|stretch goals?|"
                     r"add ?ons?)|promo (?:robots?|cards?|inventors?|characters?|salvagers?)|stretch goals?)\b")
PROTOTYPE_KEYWORD = "prototype"
# The robot cards one by one ("names of the friends robots", "which robots have the any-row bar", "how many robot cards
# are in the base deck"): printed on the cards, listed by no book nor public source; the book's entry with the keyword
# ROSTER_KEYWORD says so (only Raising Robots has one: the other games' robots are built, not dealt)
ROSTER_PATTERN = (r"\b(?:names?|list) of (?:the |all (?:the )?)?(?:\d+ )?(?:\w+ )?robots?\b|\brobots'? names\b|\bname of the robot\b|"
                  r"\b(?:what|which) (?:of the )?(?:\w+ )?robots? (?:has|have|carry|carries|shows?)\b(?! (?:to|already|been|"
                  r"just)\b)|"
                  r"\bhow many (?:\w+ ){0,3}robots? (?:cards? )?(?:are )?(?:in the (?:\w+ )?(?:deck|box)|(?:have|has)\b(?! (?:to|"
                  r"already|been|just)\b))|"
                  r"\bhow many robot cards (?:are )?in (?:the|a|each) (?:\w+ )?(?:deck|box|game|expansion)\b|\bhow big is the robot deck\b")
ROSTER_KEYWORD = "list of robots"
# the words a robot card's name stands beside when its printed values are asked ("zeus cost", "hallyu worth", "the robot
# selfie"): a word no entry holds said there is the name of a robot card (not a slip nor slang, "diff", "bc")
ROBOT_CARD_WORDS: frozenset[str] = frozenset({"robot", "robots", "card", "cost", "costs", "worth", "vp", "bot"})
# How many copies of one card or part the deck holds ("how many homing missiles are in the deck", "how many nuclear
# part cards in the deck"): the deck's totals are published, the copies of each card are not; the book's entry with the
# keyword CARD_LIST_KEYWORD (the card list, unverified) says so. Only a deck's own totals are not this shape.
# The thing counted must be a part by its energy or a named card of the book (index._copies_of): a kind of card ("how
# many sabotage cards", "robot parts", "attacks") is counted in the published totals
COPIES_PATTERN = (r"\bhow many (?:copies of )?(?P<thing>(?:\w+ ){0,3}?\w+) (?:are |r )?(?:there )?in (?:the|a|each|our) "
                  r"(?:whole |action |main )?(?:deck|pile)\b|\bhow many (?:copies of )?(?P<thing2>(?:\w+ ){0,3}?\w+) (?:does|"
                  r"do) (?:the |a )?(?:action |whole |main )?deck (?:have|hold|contain)\b|\bhow many copies of (?P<thing3>"
                  r"(?:\w+ ){0,3}?\w+) (?:exist|are there)\b|\bnumber of (?P<thing4>(?:\w+ ){0,3}?\w+) in (?:the|a) (?:action "
                  r")?deck\b")
CARD_LIST_KEYWORD = "card list"
# Robotariat's characters beyond the eight the rules describe ("what power does character 10 have", "the one with no
# standee"): the box has eleven, and no source gives the other three's abilities; its entry with EXTRA_CHARACTERS_KEYWORD
EXTRA_CHARACTERS_PATTERN = (r"\bcharacters? (?:number |no\.? |#)?(?:9|10|11|nine|ten|eleven)\b|\b(?:9th|10th|11th|ninth|tenth|"
                            r"eleventh) character\b|\bcharacters? (?:\w+ ){0,3}(?:with|has|that has) no standee\b|"
                            r"\b(?:the )?(?:one|character) (?:with|that has) no standee\b|\b(?:backer|kickstarter|"
                            r"extra|missing|other (?:three|3)) characters?\b")
EXTRA_CHARACTERS_KEYWORD = "extra characters"
# Leaving out a step of the turn of one's own will ("can i skip drawing", "is the event phase optional", "hold my turn
# and go later"): no book says a step may be skipped or put off (a step that is a choice says so in its own entry)
SKIP_STEP_PATTERN = (r"^(?!.*\bunder 7\b)"
                     r".*(?:\bcan (?:i|we) (?:just )?(?:skip|pass on|sit out) (?:my |the |our |a )?(?:draw|drawing|draw phase|"
                     r"npc turns?|npc phase|event|event phase|cleanup|cleanup phase)\b|\b(?:hold|delay|save) my turn\b|"
                     r"\bis (?:the )?(?:draw|drawing|event|npc|cleanup) (?:phase |turn )?optional\b)")
# Helping one's partner in a team game ("show my hand to my partner", "protect my partner's factory", "my teammate puts
# parts into my factory"): Two Robots' Variations only say four may play two teams of two; what partners may do for each
# other is in no book (what an attack or a cancel does to a partner is Tablebot's reading, asked with other words)
TEAM_HELP_PATTERN = (r"^(?!.*\b(?:discard pile|discards|hand size|how many cards|win|wins|winning)\b).*(?:"
                     r"\b(?:show|look at|see|peek at|give|hand|pass|lend|share|trade|protect|defend|guard|help|heal|shield)\b"
                     r"(?: \w+){0,4} (?:my |our |his |her )?(?:partner|teammate|team ?mate|ally)(?:s|'s|s')?\b|"
                     r"\b(?:partners?|teammates?|team ?mates?|allies)\b (?:\w+ ){0,2}(?:give|hand|pass|lend|share|trade|swap|"
                     r"show|heal)s?(?: \w+){0,2} (?:to )?each others?\b|"
                     r"\b(?:partner|teammate|team ?mate|ally)s? (?:\w+ ){0,2}(?:put|play|add|build|place)s? (?:\w+ ){0,3}(?:into|in|on)"
                     r" my (?:factory|stacks?|piles?|robots?)\b|"
                     r"\b(?:look at|see|show|share|trade|swap) (?:\w+ )?each others? (?:\w+ )?(?:hands?|cards?)\b(?=.*\b(?:"
                     r"partners?|teammates?|teams?|2v2|2 ?v ?2|2 on 2)\b)|(?:\b(?:partners?|teammates?|teams?|2v2|2 ?v ?2|2 on 2)\b"
                     r".*)\b(?:look at|see|show|share|trade|swap) (?:\w+ )?each others? (?:\w+ )?(?:hands?|cards?)\b)")
# Rearranging what is laid out ("move a part from one pile to another", "slide a built robot to another slot", "swap
# two robots between columns"): Two Robots says how a card joins a Stack and Raising Robots where a robot is built, and
# neither says whether it may move later (a row of a robot or a token's place is asked with other words)
REARRANGE_PATTERN = (r"^(?!.*\b(?:tokens?|cubes?|space pod|stolen|steal|duplicate|sideways|susan|nikola|postman|arcitech|"
                     r"masses|posters?|civilians?)\b).*(?:"
                     r"\b(?:move|moved|swap|slide|slid|shift|switch|rearrange)\b(?: \w+){0,6} (?:to|between|over to|into|onto) "
                     r"(?:another|a different|other|my other|the other|one another)(?: one)?(?: \w+)? (?:piles?|stacks?|"
                     r"slots?|columns?)\b|\b(?:move|moved|swap|slide|shift|switch|rearrange)\b(?: \w+){0,4} from "
                     r"(?:one|a|my) (?:\w+ ){0,3}(?:piles?|stacks?|slots?|columns?)\b(?: \w+){0,5} (?:to|into|onto) (?:another|"
                     r"the other|a different)\b|\b(?:rearrange|swap|shuffle) (?:\w+ ){0,2}(?:between|among) (?:my|the) "
                     r"(?:piles|stacks|slots|columns)\b|\bswap (?:\w+ ){0,2}robots? between\b)")
TEAMS_KEYWORD = "2v2"  # the keyword of the entry on a book's team variant
# A piece gone missing and what may stand in for it ("lost our meeple, can we use a pawn", "lost a cube, what do we track
# rep with"): no book says; the scope entry on mishaps says so (asks_mishap). A stand-in must be asked: "lost" alone is
# as often the game's ("i lost two power cards", "lost the robot race")
LOST_PIECE_PATTERN = (r"\b(?:lost|missing|misplaced|can'?t find|cannot find)\b(?: \w+){0,5} (?:meeples?|pawns?|tokens?|cubes?|"
                      r"dice|die|pieces?|markers?|standees?|triangles?|minis?|figures?)\b.*\b(?:coin|penny|pennies|"
                      r"pawn|button|bead|d6|normal die|something else|anything else|substitute|replace|proxy|stand "
                      r"in|(?:what|which) (?:\w+ )?(?:can|could|do|should) we use|(?:can|could) we (?:just )?use (?:a|an|any|some)|"
                      r"track (?:\w+ )?with|mark (?:\w+ ){0,3}with)\b")
# Another game than Tablebot's three, named as what the question is about ("in catan can you trade 4 to 1", "how do you
# castle in chess", a standard deck of playing cards): no rulebook here holds its rules. Only names no entry uses (a
# test holds them to that): "risk", "clue", "go", "life" or "bingo" (a robot of a worked example) are words of the
# games' own questions too.
OTHER_GAME_PATTERN = (r"\b(?:uno|chess|checkers|draughts|monopoly|catan|scrabble|poker|blackjack|yahtzee|cluedo|jenga|mahjong|"
                      r"mah jong|backgammon|carcassonne|gloomhaven|wingspan|azul|splendor|codenames|hearthstone|mtg|dnd|"
                      r"solitaire|rummy|canasta|cribbage|euchre|dominoes|battleship|stratego|pictionary|boggle|"
                      r"trivial pursuit|ticket to ride|magic the gathering|dungeons (?:and|&) dragons|d&d|go fish|"
                      r"crazy eights|old maid|"
                      # a sport ("how many players on a soccer team", "the score of the lakers game")
                      r"soccer|football|basketball|baseball|hockey|tennis|golf|rugby|cricket|nba|nfl|nhl|mlb|super ?bowl|"
                      r"world cup|premier league|lakers)\b|"
                      r"\b(?:standard|regular|normal|ordinary|52 card) deck of (?:playing )?cards\b")
# ... but another game named as a likeness ("search is like go fish", "golf style scoring"): the question is this game's
OTHER_GAME_LIKENESS = (r"\b(?:like|"
                       r"basically|similar to|same as|kind of) (?:a |an |in |playing )?(?:uno|chess|checkers|monopoly|catan|"
                       r"poker|blackjack|go fish|old maid|crazy eights|rummy|solitaire|football|soccer|hockey|golf|tennis|"
                       r"basketball|baseball)\b|\b(?:golf|poker|chess|uno) (?:style|rules for scoring)\b")
# The printed words themselves asked for as words ("full wording of ...", "the exact text on shogun", "word for word"):
# the entries say in their own words what a piece does, never its printed text, so no entry answers (an honest one
# that says the text is printed nowhere is shown first). "what does X say", "the text on X" and "which ... are printed
# on X" ask what the piece does or holds, which an entry about it answers (TEXT_PATTERNS: a card text the books never
# print still gets the honest entry): in players' plain questions they were mostly that ("what does albert say he
# does", "what does the sabotage space say").
VERBATIM_PATTERNS: tuple[str, ...] = (
    r"\b(?:full|exact|actual|printed) (?:text|wording|words)\b", r"\bword for word\b", r"\bverbatim\b",
)
OPINION_MARKERS: frozenset[str] = frozenset({"strategy", "advice"})
OPINION_WORDS: frozenset[str] = frozenset({"better", "best", "strongest", "weakest", "optimal", "worth", "good",
                                           "idea", "recommend", "recommended", "advice", "strategy", "tip", "tips",
                                           "too", "strong", "weak", "powerful", "broken", "overpowered", "op",
                                           "underpowered", "imbalanced", "unbalanced"})
TEXTS_UNKNOWN = "texts not printed"
