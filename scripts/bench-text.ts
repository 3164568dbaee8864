// Text for seeded ads: varied, plausible, and with a known spread of word frequencies, so the
// benchmark can search a common word ("discreet", in about 40 % of ads), a rare one
// ("theremin", about 0.03 %) and two common words together.

/** mulberry32: small, fast, deterministic. */
export function makeRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)];

const ADJ = [
  'Elegant',
  'Sweet',
  'Classy',
  'Charming',
  'Friendly',
  'Gorgeous',
  'Sophisticated',
  'Playful',
  'Stunning',
  'Warm',
  'Relaxed',
  'Upscale',
  'Exotic',
  'Petite',
  'Curvy',
  'Tall',
];
const NOUN = ['companion', 'lady', 'brunette', 'blonde', 'redhead', 'beauty', 'model', 'masseuse', 'sweetheart', 'muse', 'date'];
const TAIL = [
  'in town',
  'available now',
  'for dinner dates',
  'downtown',
  'this week',
  'by appointment',
  'near the airport',
  'for travel',
  'tonight',
  'weekends only',
  'new in the area',
  'upscale incall',
];

const OPENERS = [
  'Hi gentlemen, I am a {adj} and {adj2} {noun} who loves good conversation.',
  'Welcome! I am {adj} {noun} with a warm smile and a calm, easy manner.',
  'Looking for a {adj} {noun} to share a relaxing evening? You found her.',
  'Visiting for a few days only, a {adj} {noun} with excellent reviews.',
];
const MIDDLES = [
  'I am discreet, punctual and always well dressed.',
  'Dinner dates, social events and travel companionship are my favourites.',
  'Clean, quiet and private incall in a safe upscale building.',
  'Outcall to hotels and residences, discreet and professional.',
  'Massage with warm oils in a calm studio, soft music and fresh towels.',
  'I speak English and Spanish and enjoy meeting new people.',
  'Respectful gentlemen only; screening is required for your safety and mine.',
  'I love art, good wine and long walks; in my free time I enjoy {hobby}.',
  'My schedule is flexible during the week, mornings and late evenings included.',
  'Fitness lover with an athletic figure, I also enjoy {hobby} and cooking.',
];
const CLOSERS = [
  'Text me to book an appointment, calls from blocked numbers are not answered.',
  'Please text with your name and preferred time, I reply quickly.',
  'Same day appointments welcome, advance booking appreciated.',
  'No rush, no pressure, just a lovely time together. Text to book.',
];
// Zipf-like: the first hobbies are frequent, the last very rare.
const HOBBIES = [
  'yoga',
  'reading',
  'dancing',
  'hiking',
  'painting',
  'photography',
  'tennis',
  'swimming',
  'baking',
  'gardening',
  'skiing',
  'surfing',
  'pilates',
  'chess',
  'poetry',
  'sailing',
  'golf',
  'horseback riding',
  'pottery',
  'salsa',
  'karaoke',
  'astronomy',
  'archery',
  'fencing',
  'origami',
  'beekeeping',
  'calligraphy',
  'falconry',
  'harpsichord',
  'theremin',
];
const HOBBY_WEIGHTS = HOBBIES.map((_, i) => 1 / (i + 1) ** 1.8);
const HOBBY_TOTAL = HOBBY_WEIGHTS.reduce((a, b) => a + b, 0);

function hobby(rand: () => number): string {
  let x = rand() * HOBBY_TOTAL;
  for (let i = 0; i < HOBBIES.length; i++) if ((x -= HOBBY_WEIGHTS[i]) <= 0) return HOBBIES[i];
  return HOBBIES[HOBBIES.length - 1];
}

function fill(rand: () => number, s: string): string {
  return s
    .replace('{adj}', pick(rand, ADJ).toLowerCase())
    .replace('{adj2}', pick(rand, ADJ).toLowerCase())
    .replace('{noun}', pick(rand, NOUN))
    .replace('{hobby}', hobby(rand));
}

export function adText(rand: () => number): { title: string; description: string } {
  const title = `${pick(rand, ADJ)} ${pick(rand, NOUN)} ${pick(rand, TAIL)}`;
  const parts = [fill(rand, pick(rand, OPENERS))];
  const n = 2 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) parts.push(fill(rand, pick(rand, MIDDLES)));
  parts.push(pick(rand, CLOSERS));
  return { title, description: parts.join(' ') };
}
