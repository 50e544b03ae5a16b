import type { Segment } from '../catalogue/makes.constants.ts';

/**
 * The 63 makes of the Update-commands page, in the order of the select (decisions §8). Each is
 * also the name of the worksheet that holds that make's commands.
 */
export const UPDATE_COMMAND_MAKES = [
  'Ashok Leyland',
  'Baic',
  'Bajaj 3 Wheelers',
  'Bajaj-Bikes',
  'BMW',
  'BMW Bikes',
  'BYD',
  'Chery',
  'Chevrolet',
  'Citroen',
  'Daewoo',
  'Ducati Bikes',
  'Fiat',
  'Force Motors',
  'Ford',
  'Geely',
  'Geo',
  'GMC',
  'Great Wall',
  'Haval',
  'Honda',
  'Honda Bikes',
  'Husqvarna Bikes',
  'Hyundai',
  'Infiniti',
  'Isuzu',
  'JAC Motors',
  'Jeep',
  'KTM- Bikes',
  'Land Rover',
  'Lexus',
  'MG',
  'Mahindra',
  'Mahindra 3 Wheelers',
  'Maserati',
  'Mercedes Benz',
  'Mitsubishi',
  'Nissan',
  'Opel',
  'Other Bikes',
  'Perodua',
  'Peugeot',
  'Piaggio 3 Wheelers',
  'Piaggio Bikes',
  'Proton',
  'Renault',
  'Rover',
  'Royal Enfield Bikes',
  'Ssangyong',
  'Subaru',
  'Suzuki',
  'Suzuki Bikes',
  'TVS 3 Wheelers',
  'TVS Bikes',
  'Tata',
  'Tata EV',
  'Toyota',
  'Triumph Bikes',
  'UAZ',
  'VAZ',
  'Volkswagen',
  'Volvo',
  'Yamaha Bikes',
] as const;
export type UpdateCommandMake = (typeof UPDATE_COMMAND_MAKES)[number];

export const UPDATE_COMMAND_MAKE_LABEL = 'Sheet Name (Make) *';
export const UPDATE_COMMAND_MAKE_PLACEHOLDER = 'Select a make/sheet name';

/**
 * The segment of one of these makes (decisions §8): `… Bikes`, `…-Bikes`, `…- Bikes` and
 * `Other Bikes` are bikes, `… 3 Wheelers` three-wheelers, Ashok Leyland a heavy commercial
 * vehicle maker, the rest cars.
 */
export function segmentOfMake(name: string): Segment {
  if (/bikes$/i.test(name)) return 'bike';
  if (/3 wheelers$/i.test(name)) return 'three_wheeler';
  if (name === 'Ashok Leyland') return 'hcv';
  return 'car';
}
