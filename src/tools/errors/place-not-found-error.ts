import { YeoulError } from '../../core/index.ts';

/** A weather service knows no place by the name the model asked for. */
export class PlaceNotFoundError extends YeoulError {
  readonly place: string;
  readonly service: string;

  constructor(fields: { place: string; service: string }) {
    super(
      'place_not_found',
      `${fields.service} found no place named ${JSON.stringify(fields.place)}; check the ` +
        'spelling, or ask with the nearest city name alone (for example "서울" or "Busan")',
    );
    this.place = fields.place;
    this.service = fields.service;
  }
}
