/**
 * Hand-written lists of the demo dataset: the fixed make list of decisions §8 and the models of
 * makes that the NHTSA vPIC data (US market) lacks or barely covers — mostly Indian, Malaysian,
 * Chinese and Russian brands. Model names are real, well-known models; years are launch years
 * where they are well established, otherwise left open.
 */

// The fixed make list and its segments are the contract's: the Update-commands page uses them too.
export type { Segment } from '@obd/contract';
export { segmentOfMake as segmentOf, UPDATE_COMMAND_MAKES } from '@obd/contract';

/**
 * Where a make of ours finds its models in vPIC, when the names differ or the vPIC make mixes
 * cars and motorcycles (vPIC 'Honda' holds both; 'Honda Bikes' takes only its motorcycles).
 * Makes not listed here look up the vPIC make of the same name, cars and trucks only.
 */
export const VPIC_SOURCES: Record<string, { vpic: string; kind: 'bike' | 'car' }> = {
  'Bajaj-Bikes': { vpic: 'Bajaj Auto', kind: 'bike' },
  'BMW Bikes': { vpic: 'BMW', kind: 'bike' },
  'Ducati Bikes': { vpic: 'Ducati', kind: 'bike' },
  'Honda Bikes': { vpic: 'Honda', kind: 'bike' },
  'Husqvarna Bikes': { vpic: 'Husqvarna', kind: 'bike' },
  'KTM- Bikes': { vpic: 'KTM', kind: 'bike' },
  'Mercedes Benz': { vpic: 'Mercedes-Benz', kind: 'car' },
  'Piaggio Bikes': { vpic: 'Piaggio and Vespa', kind: 'bike' },
  'Royal Enfield Bikes': { vpic: 'Royal Enfield', kind: 'bike' },
  'Suzuki Bikes': { vpic: 'Suzuki', kind: 'bike' },
  'Triumph Bikes': { vpic: 'Triumph', kind: 'bike' },
  'Yamaha Bikes': { vpic: 'Yamaha', kind: 'bike' },
};

/** A hand-written model: name and launch year (null when not pinned down). */
export type HandModel = readonly [name: string, yearFrom: number | null];

/** Hand-written models per make, by model group. Added to whatever vPIC has for the make. */
export const HAND_MODELS: Record<string, Record<string, readonly HandModel[]>> = {
  'Ashok Leyland': {
    Dost: [
      ['Dost+', 2020],
      ['Bada Dost', 2022],
    ],
    Partner: [['Partner', 2018]],
    Ecomet: [['Ecomet 1615', null]],
    Boss: [['Boss 1115', null]],
    AVTR: [
      ['AVTR 1922', 2020],
      ['AVTR 2820', 2020],
      ['AVTR 4620', 2020],
    ],
    Captain: [['Captain 2523', null]],
  },
  Baic: {
    X: [
      ['X25', 2016],
      ['X35', 2016],
      ['X55', 2017],
    ],
    BJ: [
      ['BJ40', 2014],
      ['BJ80', 2016],
    ],
    EU: [['EU5', 2018]],
  },
  'Bajaj 3 Wheelers': {
    RE: [
      ['RE Compact', 2009],
      ['RE E-TEC 9.0', 2023],
    ],
    Maxima: [
      ['Maxima Z', 2014],
      ['Maxima C', 2014],
      ['Maxima Cargo', 2015],
    ],
  },
  'Bajaj-Bikes': {
    Pulsar: [
      ['Pulsar 150', 2001],
      ['Pulsar NS200', 2012],
      ['Pulsar RS200', 2015],
      ['Pulsar N250', 2021],
    ],
    Dominar: [
      ['Dominar 400', 2016],
      ['Dominar 250', 2020],
    ],
    Platina: [['Platina 110', 2006]],
    Avenger: [
      ['Avenger 220 Cruise', 2005],
      ['Avenger Street 160', 2019],
    ],
    Chetak: [['Chetak Electric', 2020]],
    CT: [['CT 110X', 2021]],
  },
  BYD: {
    'Atto 3': [['Atto 3', 2022]],
    Seal: [['Seal', 2022]],
    Dolphin: [['Dolphin', 2021]],
    Han: [['Han', 2020]],
    Tang: [['Tang', 2015]],
  },
  Chery: {
    Tiggo: [
      ['Tiggo 4 Pro', 2020],
      ['Tiggo 7 Pro', 2020],
      ['Tiggo 8 Pro', 2020],
    ],
    Arrizo: [
      ['Arrizo 5', 2016],
      ['Arrizo 6', 2018],
    ],
    QQ: [['QQ', 2003]],
  },
  Citroen: {
    C3: [
      ['C3', 2002],
      ['C3 Aircross', 2017],
      ['eC3', 2023],
    ],
    C5: [['C5 Aircross', 2017]],
    Basalt: [['Basalt', 2024]],
    Berlingo: [['Berlingo', 1996]],
  },
  'Force Motors': {
    Gurkha: [['Gurkha', 2013]],
    Trax: [['Trax Cruiser', null]],
    Traveller: [['Traveller 3350', null]],
    Urbania: [['Urbania', 2022]],
  },
  Geely: {
    Coolray: [['Coolray', 2018]],
    Emgrand: [['Emgrand', 2009]],
    Geometry: [['Geometry C', 2020]],
    Okavango: [['Okavango', 2020]],
    Tugella: [['Tugella', 2019]],
    Monjaro: [['Monjaro', 2021]],
  },
  'Great Wall': {
    Wingle: [
      ['Wingle 5', 2010],
      ['Wingle 7', 2018],
    ],
    Poer: [['Poer', 2019]],
    Cannon: [['Cannon', 2020]],
  },
  Haval: {
    H6: [['H6', 2011]],
    H9: [['H9', 2014]],
    Jolion: [['Jolion', 2020]],
    Dargo: [['Dargo', 2020]],
    F7: [['F7', 2018]],
  },
  Honda: {
    City: [['City', 1996]],
    Amaze: [['Amaze', 2013]],
    Elevate: [['Elevate', 2023]],
    Jazz: [['Jazz', 2001]],
  },
  Hyundai: {
    Creta: [['Creta', 2015]],
    Venue: [['Venue', 2019]],
    i20: [['i20', 2008]],
    Verna: [['Verna', 2006]],
    Alcazar: [['Alcazar', 2021]],
    Exter: [['Exter', 2023]],
  },
  'JAC Motors': {
    JS: [
      ['JS4', 2020],
      ['JS6', 2021],
    ],
    T: [
      ['T6', 2015],
      ['T8', 2018],
    ],
    J7: [['J7', 2020]],
  },
  Kia: {
    Seltos: [['Seltos', 2019]],
    Sonet: [['Sonet', 2020]],
    Carens: [['Carens', 1999]],
  },
  MG: {
    Hector: [
      ['Hector', 2019],
      ['Hector Plus', 2020],
    ],
    Astor: [['Astor', 2021]],
    ZS: [['ZS EV', 2019]],
    Gloster: [['Gloster', 2020]],
    Comet: [['Comet EV', 2023]],
    Windsor: [['Windsor EV', 2024]],
  },
  Mahindra: {
    XUV: [
      ['XUV700', 2021],
      ['XUV300', 2019],
      ['XUV400 EV', 2023],
      ['XUV 3XO', 2024],
    ],
    Scorpio: [
      ['Scorpio-N', 2022],
      ['Scorpio Classic', 2022],
    ],
    Thar: [
      ['Thar', 2020],
      ['Thar Roxx', 2024],
    ],
    Bolero: [
      ['Bolero', 2000],
      ['Bolero Neo', 2021],
    ],
    Marazzo: [['Marazzo', 2018]],
  },
  'Mahindra 3 Wheelers': {
    Alfa: [
      ['Alfa Plus', null],
      ['Alfa Load', null],
    ],
    Treo: [
      ['Treo', 2018],
      ['Treo Zor', 2020],
      ['Treo Yaari', 2019],
    ],
  },
  Nissan: {
    Magnite: [['Magnite', 2020]],
    Kicks: [['Kicks', 2016]],
  },
  'Other Bikes': {
    Hero: [
      ['Hero Splendor Plus', 1994],
      ['Hero HF Deluxe', 2005],
      ['Hero Xpulse 200', 2019],
    ],
    Jawa: [['Jawa 42', 2018]],
    Yezdi: [['Yezdi Roadster', 2022]],
    Ather: [['Ather 450X', 2020]],
    Ola: [['Ola S1 Pro', 2021]],
  },
  Perodua: {
    Myvi: [['Myvi', 2005]],
    Axia: [['Axia', 2014]],
    Bezza: [['Bezza', 2016]],
    Aruz: [['Aruz', 2019]],
    Alza: [['Alza', 2009]],
    Ativa: [['Ativa', 2021]],
  },
  Peugeot: {
    '208': [['208', 2012]],
    '2008': [['2008', 2013]],
    '308': [['308', 2007]],
    '3008': [['3008', 2008]],
    '5008': [['5008', 2009]],
    Partner: [['Partner', 1996]],
  },
  'Piaggio 3 Wheelers': {
    Ape: [
      ['Ape City', null],
      ['Ape Xtra LDX', null],
      ['Ape E-City', 2019],
      ['Ape E-Xtra FX', 2021],
    ],
  },
  Proton: {
    Saga: [['Saga', 1985]],
    Persona: [['Persona', 2007]],
    Iriz: [['Iriz', 2014]],
    X50: [['X50', 2020]],
    X70: [['X70', 2018]],
    Exora: [['Exora', 2009]],
  },
  Renault: {
    Kwid: [['Kwid', 2015]],
    Triber: [['Triber', 2019]],
    Kiger: [['Kiger', 2021]],
    Duster: [['Duster', 2010]],
    Clio: [['Clio', 1990]],
    Captur: [['Captur', 2013]],
  },
  Rover: {
    '25': [['25', 1999]],
    '45': [['45', 1999]],
    '75': [['75', 1998]],
    Streetwise: [['Streetwise', 2003]],
  },
  Ssangyong: {
    Rexton: [['Rexton', 2001]],
    Tivoli: [['Tivoli', 2015]],
    Korando: [['Korando', 1983]],
    Musso: [['Musso', 1993]],
    Actyon: [['Actyon', 2005]],
  },
  Suzuki: {
    Swift: [
      ['Swift', 2004],
      ['Dzire', 2008],
    ],
    Baleno: [['Baleno', 2015]],
    Brezza: [['Brezza', 2016]],
    Ertiga: [['Ertiga', 2012]],
    Alto: [['Alto K10', 2010]],
    WagonR: [['WagonR', 1999]],
    'Grand Vitara': [['Grand Vitara', 2022]],
    Fronx: [['Fronx', 2023]],
  },
  'Suzuki Bikes': {
    Access: [['Access 125', 2007]],
    Gixxer: [
      ['Gixxer', 2014],
      ['Gixxer SF 250', 2019],
    ],
    Burgman: [['Burgman Street', 2018]],
  },
  'TVS 3 Wheelers': {
    King: [
      ['King Deluxe', 2008],
      ['King Duramax Plus', 2021],
      ['King EV Max', 2023],
    ],
  },
  'TVS Bikes': {
    Apache: [
      ['Apache RTR 160', 2007],
      ['Apache RTR 200 4V', 2016],
      ['Apache RR 310', 2017],
    ],
    Jupiter: [
      ['Jupiter', 2013],
      ['Jupiter 125', 2021],
    ],
    Ntorq: [['Ntorq 125', 2018]],
    Raider: [['Raider 125', 2021]],
    Ronin: [['Ronin', 2022]],
    iQube: [['iQube', 2020]],
    XL100: [['XL100', 2015]],
  },
  Tata: {
    Nexon: [['Nexon', 2017]],
    Harrier: [['Harrier', 2019]],
    Safari: [['Safari', 2021]],
    Tiago: [['Tiago', 2016]],
    Altroz: [['Altroz', 2020]],
    Punch: [['Punch', 2021]],
    Tigor: [['Tigor', 2017]],
    Curvv: [['Curvv', 2024]],
  },
  'Tata EV': {
    Nexon: [['Nexon EV', 2020]],
    Tiago: [['Tiago EV', 2022]],
    Tigor: [['Tigor EV', 2021]],
    Punch: [['Punch EV', 2024]],
    Curvv: [['Curvv EV', 2024]],
  },
  Toyota: {
    Innova: [['Innova Crysta', 2016]],
    Fortuner: [['Fortuner', 2005]],
    Glanza: [['Glanza', 2019]],
    Hyryder: [['Urban Cruiser Hyryder', 2022]],
    Hilux: [['Hilux', 1968]],
  },
  UAZ: {
    Patriot: [['Patriot', 2005]],
    Hunter: [['Hunter', 2003]],
    Pickup: [['Pickup', 2008]],
    Profi: [['Profi', 2017]],
  },
  VAZ: {
    '2107': [['2107', 1982]],
    Niva: [['2121 Niva', 1977]],
    Granta: [['Granta', 2011]],
    Vesta: [['Vesta', 2015]],
    Priora: [['Priora', 2007]],
    Largus: [['Largus', 2012]],
  },
};

/**
 * Models that the OBDb signal sets and recorded scans name: they must exist (with a group) so
 * live-data rows can point at their group and scans can name them.
 */
export const REQUIRED_MODELS: Record<string, Record<string, readonly HandModel[]>> = {
  BMW: { '3 Series': [['3 Series', 1975]] },
  Chevrolet: { Silverado: [['Silverado 1500', 1999]] },
  Hyundai: { Kona: [['Kona Electric', 2018]] },
};

/** First names and surnames of the app users, by the naming tradition of the markets the app sells in. */
export const NAMES = {
  indian: {
    first: [
      'Aarav',
      'Aditi',
      'Amit',
      'Ananya',
      'Arjun',
      'Deepak',
      'Divya',
      'Ishaan',
      'Kavya',
      'Neha',
      'Pooja',
      'Priya',
      'Rahul',
      'Rajesh',
      'Rohan',
      'Sanjay',
      'Sneha',
      'Suresh',
      'Vikram',
      'Vivek',
    ],
    last: [
      'Sharma',
      'Verma',
      'Patel',
      'Gupta',
      'Singh',
      'Kumar',
      'Reddy',
      'Iyer',
      'Nair',
      'Mehta',
      'Joshi',
      'Desai',
      'Kulkarni',
      'Chopra',
      'Bose',
    ],
  },
  english: {
    first: [
      'Anna',
      'Ben',
      'Charlotte',
      'Daniel',
      'Emily',
      'Grace',
      'Jack',
      'James',
      'Lucy',
      'Michael',
      'Olivia',
      'Sarah',
      'Thomas',
      'William',
    ],
    last: [
      'Smith',
      'Johnson',
      'Brown',
      'Taylor',
      'Wilson',
      'Davies',
      'Evans',
      'Walker',
      'Miller',
      'Garcia',
      'Clarke',
      'Wright',
    ],
  },
  german: {
    first: [
      'Anna',
      'Felix',
      'Hannah',
      'Julia',
      'Lena',
      'Lukas',
      'Maria',
      'Max',
      'Sophie',
      'Jonas',
      'Paul',
      'Laura',
    ],
    last: [
      'Müller',
      'Schmidt',
      'Schneider',
      'Fischer',
      'Weber',
      'Wagner',
      'Becker',
      'Hoffmann',
      'Schäfer',
      'Koch',
    ],
  },
  arabic: {
    first: ['Ahmed', 'Fatima', 'Hassan', 'Layla', 'Mohammed', 'Omar', 'Yousef', 'Zainab', 'Khalid', 'Mariam'],
    last: ['Al Mansoori', 'Al Hashimi', 'Al Nuaimi', 'Khan', 'Haddad', 'Rahman', 'Al Suwaidi', 'Saleh'],
  },
} as const;

export type NameTradition = keyof typeof NAMES;
