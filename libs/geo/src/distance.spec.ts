import { haversineMetres, planarDegrees } from './distance';

describe('haversineMetres', () => {
  it('measures one degree of latitude as about 111.2 km', () => {
    expect(haversineMetres({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_195, -1);
  });

  it('measures Berlin to Paris as about 878 km', () => {
    const berlin = { lat: 52.52, lng: 13.405 };
    const paris = { lat: 48.8566, lng: 2.3522 };
    expect(haversineMetres(berlin, paris) / 1000).toBeCloseTo(877.5, 0);
  });

  it('is zero for the same point', () => {
    expect(haversineMetres({ lat: 10, lng: 20 }, { lat: 10, lng: 20 })).toBe(0);
  });
});

describe('planarDegrees', () => {
  it('is the hypotenuse of the degree differences', () => {
    expect(planarDegrees({ lat: 0, lng: 0 }, { lat: 3, lng: 4 })).toBe(5);
  });
});
