// Answers of the published Wordle example (its v640 version: 640 training + 128 validation words, disjoint), copied so the emulator needs no files.

/** A task of a dataset: its prompt text (the first user message's core) and, for Wordle, the hidden answer. */
export interface DatasetRow {
  id: string;
  prompt: string;
  answer?: string;
}

/** The instruction inside every Wordle row's JSON prompt, and the first user message the sample agent sends. */
export const WORDLE_PROMPT = 'Guess the 5-letter word';

const TRAIN = [
  'riser swoon dirty shoot booth fetch rigor angel stale solid pudgy tonne piece salon weave kiosk',
  'thong click baker abide reset jaunt goody fetid peach shawl sewer color quash basis prose moist',
  'wreck crash amuse forgo visor bluff chili fauna omega grand spine widen clove sunup chose piety',
  'index hunch poise gamut berth armor trial aside chasm queen proof dimly tonic revel molar spray',
  'whole inane trawl latex phone wispy lousy adult exude pluck waken neigh rouge shrew waive white',
  'viola midst bench ranch slimy visit mixer hairy froth heady width steak plant balmy touch haunt',
  'saber drape bushy tempt giant legal orbit ankle bawdy crust zebra third whose lamer panda forge',
  'mayor table press prawn tiara ninny alien sixth blitz mirth unman grape gloom brink hoard foggy',
  'liker tread heart eject papal minus spicy ember pesky marsh tacky douse shred merge crush quick',
  'clink slate grace groan lurid terse frail clone tired shore crisp stink askew pious throb ivory',
  'tunic crowd humor surge blaze camel cloud stalk singe adept gouge prong crack whale hiker felon',
  'foray unsay haven adapt champ motel mango boost greed frown slick worth sheaf razor cobra rifle',
  'kayak green polar false snail alive rigid natty strap cargo vouch enter vicar dairy undue fable',
  'crest amaze windy honor fetus where trick going music stork knoll lingo their which leery latch',
  'witch burst bosom sheen cheap arbor torso ought skimp vogue nomad power gamer udder unset gravy',
  'after fairy thyme forty vague calve mangy thump ripen freak crepe curve chirp realm radar abuse',
  'forum magic grate bravo brain cloth slant strip score scaly steer eerie hilly leach suave fleet',
  'token wagon prone wired drier point mercy chain vigor picky share ratio waste sauna disco siege',
  'smelt spice waver award towel unfit drama ebony lever force entry blend clown dough scuff hurry',
  'inept proxy vigil hyena pilot edger hobby medal chuck colic start creed queue chalk stole unify',
  'sidle husky group quart brawl human grimy juror order renew while trust niche scoot grunt naive',
  'cleft store coach sense showy guise flora slide baton saucy jiffy snake tumor lower cliff sweep',
  'soapy cramp skein axiom flask stock ultra blunt spire mouse manor union pique dying scrap avert',
  'motif infer along blink bigot chide rabbi purge stool preen three bliss paddy elope viper roomy',
  'crane stave fully stain shelf rodeo newsy court halve allow misty salty there ounce smirk girth',
  'silly shirk shyer trail grind voter tinny lucid write risky early spoof siren reply brass hazel',
  'donor daisy exult comet lodge milky wring right rowdy cluck nippy theme brick suede idler stall',
  'slyly naked gruel worry blade stint cater check glide chore motto yokel focus sissy event input',
  'karat gourd brisk cocky burro putty clock rally robot price heron aging verge navel slice shirt',
  'cameo rivet olive elbow crime nylon shall leech aware teach ruler stake whiff tawny joker raven',
  'shoal bulge aglow cower obese canny brawn tarry exile labor goose pound shear weigh recur melon',
  'snoop spoon block shrub amply widow mucus sorry seize argue peril harry carry ample larva ravel',
  'prude guard belly glass buddy patch tinge loath sigma baron halon spool young poppy tight rough',
  'flick bandy scene horse laugh amble glint could epoch comma bugle scowl swill sandy groin loser',
  'chafe livid offer madly urban stomp venue muggy sleet mousy sunny erase might ladle idiom sober',
  'layer album allay rouse spike surly gawky dopey sulky briny patty worse dozen grave stoke south',
  'hotly smock modal impel banjo spend stare heavy crock maxim optic scary until under beefy annul',
  'niece smash privy swish thank cagey bland hardy dwarf outdo couch laser ulcer mouth friar happy',
  'usher mamma spasm holly corny pasta agree winch upend upper aspen peter stern bogus trend shiny',
  'flaky brunt charm valve overt recap scour about caulk crony adore flock range feast fudge graze',
].join(' ');

const VALIDATION = [
  'gruff build avoid least voice bound child godly puppy nurse glare growl gripe nerve mince tepid',
  'evade gauze viral above plumb dogma syrup foist havoc trace valor fever steep bumpy flirt quill',
  'major aorta stoop bleat blond mover tasty satin burnt react defer craft mound cheek altar sinew',
  'alley sonic chick blare devil goner flute asset deity aroma broom unity gavel noisy buggy anger',
  'fling aisle rugby phony flour chute splat sedan known clash stamp scald refer given paste climb',
  'slope skull trash pupil vivid curly beige acute timid trunk shave dense place clean fifty mushy',
  'basic prism wreak metro juice front scoff crave nutty shade query alike curry llama gusty rhyme',
  'mulch slink storm civic scope crank puffy heave stack close drive erect yeast quite rebel frill',
].join(' ');

export const TRAIN_ANSWERS: readonly string[] = TRAIN.split(' ');
export const VALIDATION_ANSWERS: readonly string[] = VALIDATION.split(' ');

export function rowsOf(answers: readonly string[], split: 'train' | 'val'): DatasetRow[] {
  return answers.map((answer, i) => ({ id: `wordle_${split}_${String(i).padStart(4, '0')}`, prompt: WORDLE_PROMPT, answer }));
}

/** The dataset file as JSON Lines, byte for byte as Python's json.dumps wrote the published v640 files. */
export function toJsonl(rows: readonly DatasetRow[]): string {
  const line = (r: DatasetRow) =>
    `{"prompt": ${JSON.stringify(`{"prompt": "${WORDLE_PROMPT}", "answer": "${r.answer}", "id": "${r.id}"}`)}}`;
  return rows.map(line).join('\n') + '\n';
}

/** Any task's dataset as JSON Lines: one plain-text `prompt` column, as the real support run's data. */
export function promptsJsonl(rows: readonly DatasetRow[]): string {
  return rows.map((r) => JSON.stringify({ prompt: r.prompt })).join('\n') + '\n';
}
