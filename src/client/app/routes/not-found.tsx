import { NotFound } from '../components/NotFound.js';

export default NotFound;
